// The config file (payment-service-contract.config.json, or --config PATH): the flags' settings in a file, checked against its published JSON Schema; a key never, only the name of the variable that holds it.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { findSecrets, type SecretSpan } from '@payment-service/sdk';
import { ConfigurationError } from '../errors.js';
import { FAIL_ON_VALUES, type FailOn } from '../report.js';
import { REPORT_FORMATS, type ReportFormat } from '../reports/index.js';
import { scenarios } from '../scenarios/index.js';
import { cleanTargetText } from '../untrusted-text.js';
import { assertMatchesSchema } from './schema-errors.js';
import { MAX_SEED } from './seed.js';

/** The file looked for in the working directory when no --config is given. */
export const CONFIG_FILE = 'payment-service-contract.config.json';

/** Where a config's `$schema` points when the package is installed. */
export const CONFIG_SCHEMA_PATH =
  './node_modules/@payment-service/contract/schema/config.schema.json';

/** A config file's settings: each the value of the flag of the same name; flags override them. */
export interface ContractConfig {
  $schema?: string;
  baseUrl?: string;
  /** The name of the environment variable that holds the `sk_test_` key (default PAYMENT_SERVICE_API_KEY). */
  keyEnv?: string;
  failOn?: FailOn;
  reports?: Array<{ format: ReportFormat; output?: string }>;
  maxRequests?: number;
  rate?: number;
  /** Seconds, per request. */
  timeout?: number;
  /** Minutes, the whole run. */
  deadline?: number;
  webhookUrl?: string;
  webhookListen?: string;
  /** Seconds. */
  webhookTimeout?: number;
  scenarios?: string[];
  operations?: string[];
  checks?: string[];
  provenance?: 'documented' | 'inferred';
  exclude?: string[];
  /** The baseline file, relative to the config file. */
  baseline?: string;
  seed?: number;
}

const globs = (what: string) => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  description: what,
});
const positive = (what: string) => ({ type: 'number', exclusiveMinimum: 0, description: what });

/** The JSON Schema of the config file (published as `schema/config.schema.json`). */
export const configSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/payment-service/payment-service-kit/packages/contract/schema/config.schema.json',
  title: 'payment-service-contract config',
  description:
    'Settings of `payment-service-contract check` and `list`; a flag on the command line overrides the setting of the same name. No key: keyEnv names the environment variable that holds it.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    baseUrl: {
      type: 'string',
      pattern: '^https?://',
      description: 'an http(s) URL: the target (--base-url)',
    },
    keyEnv: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description:
        'the name of an environment variable holding the sk_test_ key (default PAYMENT_SERVICE_API_KEY)',
    },
    failOn: { enum: [...FAIL_ON_VALUES], description: 'which failures exit 1 (--fail-on)' },
    reports: {
      type: 'array',
      description: 'the reports to write (--format, --output); without output, to stdout',
      items: {
        type: 'object',
        required: ['format'],
        additionalProperties: false,
        properties: {
          format: { enum: [...REPORT_FORMATS] },
          output: { type: 'string', minLength: 1 },
        },
      },
    },
    maxRequests: { type: 'integer', minimum: 1, description: 'requests in the whole run, at most' },
    rate: positive('requests per second, at most'),
    timeout: positive('seconds per request'),
    deadline: positive('minutes for the whole run'),
    webhookUrl: {
      type: 'string',
      pattern: '^https?://',
      description: 'an http(s) URL where the target delivers webhooks (--webhook-url)',
    },
    webhookListen: { type: 'string', minLength: 1, description: '[host:]port of the receiver' },
    webhookTimeout: positive('seconds to wait for a delivery'),
    scenarios: {
      type: 'array',
      items: { enum: scenarios.map((scenario) => scenario.id) },
      description: 'only these scenarios (--scenario)',
    },
    operations: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'only the checks of these operations (--operation)',
    },
    checks: globs('only the checks whose id matches one of these globs (--check)'),
    provenance: {
      enum: ['documented', 'inferred'],
      description: 'only documented, or only inferred, checks (--provenance)',
    },
    exclude: globs('not the checks whose id matches one of these globs (--exclude)'),
    baseline: {
      type: 'string',
      minLength: 1,
      description: 'the baseline file of known failures, relative to this file (--baseline)',
    },
    seed: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_SEED,
      description: 'the seed of markers, keys and Idempotency-Keys (--seed)',
    },
  },
} as const;

/**
 * Whether a secret found in `value` refuses the config: a key standing alone, or glued after `_`
 * or a digit. Glued after a letter it may be the end of a word (`desk_live_dashboard.json`,
 * `risk_test_baseline.json`): the masker hides it in what the CLI shows, but a file is not
 * refused for a word.
 */
const refuses = (value: string) => (span: SecretSpan) =>
  span.kind !== 'whsec' && !/[A-Za-z]/.test(value[span.start - 1] ?? '');

/** The first string in a value that is or holds a secret key, with the field holding it. */
function secretField(value: unknown, field: string): string | undefined {
  if (typeof value === 'string')
    // A value that is a key, or holds one anywhere (`Bearer sk_…`, glued, percent-encoded).
    return /^sk_/.test(value.trim()) || findSecrets(value).some(refuses(value)) ? field : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = secretField(item, `${field}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      const found = secretField(item, `${field}.${name}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Checks a config value: no key in it, and every field as the schema says; throws a
 * ConfigurationError (exit 2) naming the field.
 *
 * @example
 * parseConfig({ failOn: 'sometimes' }); // throws: config.failOn: expected one of documented, inferred, any, none
 */
export function parseConfig(value: unknown): ContractConfig {
  const secret = secretField(value, 'config');
  if (secret) {
    throw new ConfigurationError(
      `${secret}: holds a secret key (sk_…): keep keys out of files; put it in an environment variable and name that variable in keyEnv`,
    );
  }
  for (const name of ['key', 'apiKey', 'api_key']) {
    if (value !== null && typeof value === 'object' && name in value) {
      throw new ConfigurationError(
        `config.${name}: a config file holds no key; set keyEnv to the name of the environment variable that holds it`,
      );
    }
  }
  assertMatchesSchema(configSchema, value, 'config');
  return value as ContractConfig;
}

/**
 * Reads the config: `--config PATH` (which must exist), else CONFIG_FILE in `cwd` when there is
 * one; its `baseline` comes back relative to `cwd`. Undefined without a config.
 *
 * @example
 * const config = await loadConfig(process.cwd(), undefined);
 */
export async function loadConfig(
  cwd: string,
  given: string | undefined,
): Promise<ContractConfig | undefined> {
  const path = resolve(cwd, given ?? CONFIG_FILE);
  const shown = given ?? CONFIG_FILE;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (given === undefined && code === 'ENOENT') return undefined;
    throw new ConfigurationError(`--config ${shown}: cannot read it (${code ?? 'error'})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(
      `${shown}: not JSON (${cleanTargetText((error as Error).message, 200)})`,
    );
  }
  const config = parseConfig(value);
  if (config.baseline !== undefined && !isAbsolute(config.baseline)) {
    config.baseline = relative(cwd, resolve(dirname(path), config.baseline)) || '.';
  }
  return config;
}

/**
 * A config's settings as the values of the flags of the same name (what parseArgs would give),
 * for a command line to fill in what its flags leave out.
 *
 * @example
 * configOptionValues({ failOn: 'any', rate: 5 }); // { 'fail-on': 'any', rate: '5' }
 */
export function configOptionValues(
  config: ContractConfig = {},
): Record<string, string | string[] | undefined> {
  const text = (value: number | undefined) => (value === undefined ? undefined : String(value));
  const values: Record<string, string | string[] | undefined> = {
    'base-url': config.baseUrl,
    'fail-on': config.failOn,
    'max-requests': text(config.maxRequests),
    rate: text(config.rate),
    timeout: text(config.timeout),
    deadline: text(config.deadline),
    'webhook-url': config.webhookUrl,
    'webhook-listen': config.webhookListen,
    'webhook-timeout': text(config.webhookTimeout),
    scenario: config.scenarios,
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * The key a run uses: `--key`, else the variable the config's keyEnv names (which must be set),
 * else PAYMENT_SERVICE_API_KEY.
 *
 * @example
 * keyFrom(undefined, { keyEnv: 'SANDBOX_KEY' }, process.env);
 */
export function keyFrom(
  flag: string | undefined,
  config: ContractConfig = {},
  env: Record<string, string | undefined> = {},
): string {
  if (flag !== undefined) return flag;
  if (config.keyEnv !== undefined) {
    const value = env[config.keyEnv];
    if (value === undefined || value === '') {
      throw new ConfigurationError(
        `config.keyEnv: names ${config.keyEnv}, which is not set: export ${config.keyEnv}=sk_test_… or pass --key`,
      );
    }
    return value;
  }
  return env.PAYMENT_SERVICE_API_KEY ?? '';
}
