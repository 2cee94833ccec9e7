// Parses the command lines of `proxy` and `replay` (node's util.parseArgs); every mistake is a ConfigurationError naming the option.
import { parseArgs } from 'node:util';
import { findSecrets } from '@payment-service/sdk';
import { type ReportDestination, reportDestinations } from '../cli/args.js';
import { ConfigurationError } from '../errors.js';
import { GATE_OPTIONS, type GateArguments, gateArguments } from '../gate/arguments.js';
import type { ContractConfig } from '../gate/config.js';
import { FAIL_ON_VALUES, type FailOn } from '../report.js';
import { cleanTargetText } from '../untrusted-text.js';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from './forward.js';

/** The port `proxy` listens on without `--port`. */
export const DEFAULT_PROXY_PORT = 4020;
/** Bodies over this many bytes are forwarded but not checked, without `--max-body`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Entries a recording keeps, without `--record-max-entries`. */
export const DEFAULT_RECORD_ENTRIES = 10_000;

/** When the proxy stops because the process that started it ended: `auto` only under npx / `npm exec`. */
export const PARENT_WATCH_VALUES = ['auto', 'on', 'off'] as const;
/** `--parent-watch` as given. */
export type ParentWatchMode = (typeof PARENT_WATCH_VALUES)[number];

/** `payment-service-contract proxy …` as given. */
export interface ProxyCommand {
  name: 'proxy';
  target: string;
  host: string;
  port: number;
  failOn: FailOn;
  reports: ReportDestination[];
  /** The selection and the baseline (--operation, --check, --provenance, --exclude, --baseline, --update-baseline). */
  gate: GateArguments;
  /** `--config FILE`, as given. */
  config?: string;
  record?: string;
  recordMaxEntries: number;
  maxBodyBytes: number;
  /** How long one exchange may take before the proxy answers 504 (or cuts the answer), in ms. */
  upstreamTimeoutMs: number;
  /** Stop once the process that started it ends: `auto` (default) only when started by npx / `npm exec`. */
  parentWatch: ParentWatchMode;
}

/** `payment-service-contract replay FILE …` as given. */
export interface ReplayCommand {
  name: 'replay';
  file: string;
  spec?: string;
  failOn: FailOn;
  reports: ReportDestination[];
  /** The selection and the baseline, as `proxy`'s. */
  gate: GateArguments;
  /** `--config FILE`, as given. */
  config?: string;
}

/** The gate's flags but `--seed`: traffic has no keys or markers of ours to repeat. */
const { seed: _seed, ...gateOptions } = GATE_OPTIONS;
/** The flags both commands take. */
const SHARED = ['report', 'fail-on', ...Object.keys(gateOptions)];

const options = {
  ...gateOptions,
  target: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  report: { type: 'string', multiple: true },
  record: { type: 'string' },
  'record-max-entries': { type: 'string' },
  'max-body': { type: 'string' },
  'parent-watch': { type: 'string' },
  'upstream-timeout': { type: 'string' },
  spec: { type: 'string' },
  'fail-on': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function whole(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new ConfigurationError(
      `--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(cleanTargetText(value, 40))}`,
    );
  return parsed;
}

/** The target's URL, checked: http(s), no credentials, no key in it. */
function targetUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigurationError('--target must be an http(s) URL such as http://127.0.0.1:4010');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigurationError(`--target must be an http(s) URL, not ${url.protocol} …`);
  if (
    url.username !== '' ||
    url.password !== '' ||
    /sk_\w+_/.test(text) ||
    findSecrets(text).length > 0
  )
    throw new ConfigurationError(
      '--target must carry no credentials and no key: the app sends its key in Authorization, and the proxy passes it on. Nothing was started.',
    );
  if (url.search !== '' || url.hash !== '')
    throw new ConfigurationError('--target takes an origin and an optional base path, no query');
  return url.href.replace(/\/+$/, '');
}

/**
 * Parses `proxy` or `replay` arguments (the command name first); `help` when `--help` is given.
 *
 * @example
 * parseTrafficCommand(['proxy', '--target', 'http://127.0.0.1:4010', '--report', 'junit:proxy.xml'], {});
 * // { name: 'proxy', target: 'http://127.0.0.1:4010', port: 4020, reports: [{ format: 'junit', output: 'proxy.xml' }], … }
 */
export function parseTrafficCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  config: ContractConfig = {},
): ProxyCommand | ReplayCommand | { name: 'help'; topic: 'proxy' | 'replay' } {
  const parse = () =>
    parseArgs({ args: argv, options, allowPositionals: true, tokens: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new ConfigurationError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  const { values, positionals, tokens } = parsed;
  const [name, ...rest] = positionals;
  if (name !== 'proxy' && name !== 'replay')
    throw new ConfigurationError('expected the proxy or replay command');
  if (values.help) return { name: 'help', topic: name };
  const failOn = (values['fail-on'] ?? config.failOn ?? 'documented') as FailOn;
  if (!FAIL_ON_VALUES.includes(failOn))
    throw new ConfigurationError(
      `--fail-on must be one of ${FAIL_ON_VALUES.join(', ')}, not ${JSON.stringify(cleanTargetText(failOn, 40))}`,
    );
  // `--report FORMAT[:FILE]` is `check`'s `--format FORMAT[:FILE]`: the same pairing, the same formats.
  const reports = reportDestinations(
    (tokens ?? []).map((token) =>
      token.kind === 'option' && token.name === 'report' ? { ...token, name: 'format' } : token,
    ),
  );
  const gate = gateArguments(values, config);
  const shared = { failOn, reports, gate, ...(values.config ? { config: values.config } : {}) };
  const only = (allowed: string[]) => {
    for (const option of Object.keys(values))
      if (!allowed.includes(option) && !SHARED.includes(option) && option !== 'help')
        throw new ConfigurationError(
          `--${option} belongs to ${name === 'proxy' ? 'replay' : 'proxy'}, not ${name}`,
        );
  };
  if (name === 'replay') {
    only(['spec']);
    const [file, ...extra] = rest;
    if (!file)
      throw new ConfigurationError(
        'replay needs the recording: payment-service-contract replay FILE.har',
      );
    if (extra.length > 0)
      throw new ConfigurationError(
        `unexpected argument ${JSON.stringify(cleanTargetText(extra[0] ?? '', 80))}`,
      );
    return { name, file, ...shared, ...(values.spec ? { spec: values.spec } : {}) };
  }
  only([
    'target',
    'host',
    'port',
    'record',
    'record-max-entries',
    'max-body',
    'parent-watch',
    'upstream-timeout',
  ]);
  if (rest.length > 0)
    throw new ConfigurationError(
      `unexpected argument ${JSON.stringify(cleanTargetText(rest[0] ?? '', 80))}`,
    );
  const target = values.target ?? env.PAYMENT_SERVICE_BASE_URL;
  if (!target)
    throw new ConfigurationError('proxy needs --target URL: the sandbox (or mock) to forward to');
  if (values.record === '') throw new ConfigurationError('--record needs a file name');
  const parentWatch = (values['parent-watch'] ?? 'auto') as ParentWatchMode;
  if (!PARENT_WATCH_VALUES.includes(parentWatch))
    throw new ConfigurationError(
      `--parent-watch must be one of ${PARENT_WATCH_VALUES.join(', ')}, not ${JSON.stringify(cleanTargetText(parentWatch, 40))}`,
    );
  return {
    name,
    target: targetUrl(target),
    host: values.host ?? '127.0.0.1',
    port: whole('port', values.port, 0, 65535) ?? DEFAULT_PROXY_PORT,
    ...shared,
    ...(values.record !== undefined ? { record: values.record } : {}),
    recordMaxEntries:
      whole('record-max-entries', values['record-max-entries'], 1, 1_000_000) ??
      DEFAULT_RECORD_ENTRIES,
    maxBodyBytes:
      whole('max-body', values['max-body'], 1, 64 * 1024 * 1024) ?? DEFAULT_MAX_BODY_BYTES,
    upstreamTimeoutMs:
      whole('upstream-timeout', values['upstream-timeout'], 1, 3_600_000) ??
      DEFAULT_UPSTREAM_TIMEOUT_MS,
    parentWatch,
  };
}

/**
 * The `--config FILE` of a traffic command line, read before the rest (whose defaults it gives).
 *
 * @example
 * trafficConfigFile(['replay', 'traffic.har', '--config', 'ci.json']); // 'ci.json'
 */
export function trafficConfigFile(argv: string[]): string | undefined {
  const { values } = parseArgs({ args: argv, options, allowPositionals: true, strict: false });
  return typeof values.config === 'string' ? values.config : undefined;
}
