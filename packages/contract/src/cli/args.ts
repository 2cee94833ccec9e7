// Parses the command line (node's util.parseArgs) into a command and its options; every mistake is a UsageError naming the option.
import { parseArgs } from 'node:util';
import { ConfigurationError } from '../errors.js';
import { GATE_OPTIONS, type GateArguments, gateArguments } from '../gate/arguments.js';
import { type ContractConfig, configOptionValues, keyFrom } from '../gate/config.js';
import type { CheckSelection } from '../gate/filters.js';
import { FAIL_ON_VALUES, type FailOn } from '../report.js';
import { REPORT_FORMATS, type ReportFormat } from '../reports/index.js';
import { type ContractCheckOptions, DEFAULTS } from '../runner/run.js';

/** The formats `compare` can write. */
const COMPARE_FORMATS: readonly ReportFormat[] = ['text', 'markdown', 'json'];

/** One report to write: a format, to a file or (without one) to stdout. */
export interface ReportDestination {
  format: ReportFormat;
  output?: string;
}

/** What the command line asks for. */
export type Command =
  | { name: 'help'; topic?: string }
  | { name: 'version' }
  | { name: 'list'; format: 'text' | 'json'; selection: CheckSelection }
  | ({ name: 'check' } & CheckArguments)
  | ({
      name: 'compare';
      against: string;
      /** The `--against` target's own key: `--key` is never sent to it. */
      againstKey: string;
      againstWebhookUrl?: string;
    } & CheckArguments);

/** The options `check` and `compare` share: the run's options as given on the command line. */
export interface CheckArguments
  extends Required<Pick<ContractCheckOptions, 'failOn' | 'scenarios'>>,
    Pick<
      ContractCheckOptions,
      | 'baseUrl'
      | 'apiKey'
      | 'maxRequests'
      | 'rate'
      | 'timeoutMs'
      | 'webhookUrl'
      | 'webhookListen'
      | 'webhookTimeoutMs'
      | 'deadlineMs'
    > {
  reports: ReportDestination[];
  progress: boolean;
  /** The selection, baseline and seed (--operation, --check, --baseline, --seed, …). */
  gate: GateArguments;
}

const options = {
  'base-url': { type: 'string' },
  key: { type: 'string' },
  format: { type: 'string', multiple: true },
  output: { type: 'string', multiple: true },
  'fail-on': { type: 'string' },
  'max-requests': { type: 'string' },
  rate: { type: 'string' },
  timeout: { type: 'string' },
  'webhook-url': { type: 'string' },
  'webhook-listen': { type: 'string' },
  'webhook-timeout': { type: 'string' },
  deadline: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  against: { type: 'string' },
  'against-key': { type: 'string' },
  'against-webhook-url': { type: 'string' },
  'no-progress': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...GATE_OPTIONS,
} as const;

function number(name: string, value: string | undefined, scale = 1): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) {
    throw new ConfigurationError(
      `--${name} must be a positive number, not ${JSON.stringify(value)}`,
    );
  }
  return parsed * scale;
}

/**
 * Pairs `--format` and `--output` in the order given: an `--output` names the file of the `--format`
 * just before it; `--format junit:report.xml` is the short form. At most one report goes to stdout.
 *
 * @example
 * reportDestinations([{ kind: 'option', name: 'format', value: 'junit' }, { kind: 'option', name: 'output', value: 'r.xml' }]);
 * // [{ format: 'junit', output: 'r.xml' }]
 */
export function reportDestinations(
  tokens: ReadonlyArray<{ kind: string; name?: string; value?: string | undefined }>,
): ReportDestination[] {
  const reports: ReportDestination[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'format') {
      const [format = '', ...file] = (token.value ?? '').split(':');
      if (!REPORT_FORMATS.includes(format as ReportFormat)) {
        throw new ConfigurationError(
          `--format must be one of ${REPORT_FORMATS.join(', ')}, not ${JSON.stringify(format)}`,
        );
      }
      reports.push({
        format: format as ReportFormat,
        ...(file.length > 0 ? { output: file.join(':') } : {}),
      });
    }
    if (token.name === 'output') {
      const last = reports.at(-1);
      if (!last) reports.push({ format: 'text', output: token.value ?? '' });
      else if (last.output !== undefined) {
        throw new ConfigurationError(
          `--output ${token.value} follows a --format that already has a file: give each --output its own --format`,
        );
      } else last.output = token.value ?? '';
      if (!token.value) throw new ConfigurationError('--output needs a file name');
    }
  }
  if (reports.length === 0) reports.push({ format: 'text' });
  const toStdout = reports.filter((report) => report.output === undefined);
  if (toStdout.length > 1) {
    throw new ConfigurationError(
      `only one report can go to stdout; give --output FILE to all but one of: ${toStdout.map((report) => report.format).join(', ')}`,
    );
  }
  return reports;
}

/**
 * Parses the arguments after the program name; `env` supplies PAYMENT_SERVICE_BASE_URL, PAYMENT_SERVICE_API_KEY and (compare) PAYMENT_SERVICE_AGAINST_API_KEY.
 *
 * @example
 * parseCommand(['check', '--base-url', 'http://127.0.0.1:4010', '--key', 'sk_test_ci_0123456789'], {});
 * // { name: 'check', baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_ci_0123456789', failOn: 'documented', … }
 */
export function parseCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  config?: ContractConfig,
): Command {
  const parse = () =>
    parseArgs({ args: argv, options, allowPositionals: true, tokens: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new ConfigurationError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  const { positionals, tokens } = parsed;
  // A flag overrides the config file's setting of the same name.
  const values = { ...configOptionValues(config), ...parsed.values } as typeof parsed.values;
  const [name, ...extra] = positionals;
  if (values.version) return { name: 'version' };
  if (values.help || name === undefined || name === 'help') {
    return {
      name: 'help',
      ...(name && name !== 'help' ? { topic: name } : extra[0] ? { topic: extra[0] } : {}),
    };
  }
  if (extra.length > 0)
    throw new ConfigurationError(`unexpected argument ${JSON.stringify(extra[0])} (see --help)`);
  if (name === 'list') {
    const format = values.format?.[0] ?? 'text';
    if (format !== 'text' && format !== 'json')
      throw new ConfigurationError('list --format is text or json');
    return { name: 'list', format, selection: gateArguments(values, config).selection };
  }
  if (name !== 'check' && name !== 'compare') {
    throw new ConfigurationError(
      `unknown command ${JSON.stringify(name)}: use check, compare, list, proxy or replay (see --help)`,
    );
  }
  const baseUrl = values['base-url'] ?? env.PAYMENT_SERVICE_BASE_URL;
  if (!baseUrl)
    throw new ConfigurationError('no target: pass --base-url or set PAYMENT_SERVICE_BASE_URL');
  const failOn = (values['fail-on'] ?? DEFAULTS.failOn) as FailOn;
  if (!FAIL_ON_VALUES.includes(failOn)) {
    throw new ConfigurationError(
      `--fail-on must be one of ${FAIL_ON_VALUES.join(', ')}, not ${JSON.stringify(values['fail-on'])}`,
    );
  }
  const common: CheckArguments = {
    baseUrl,
    apiKey: keyFrom(values.key, config, env),
    failOn,
    reports: reportDestinations(
      (tokens ?? []).some(
        (token) => token.kind === 'option' && (token.name === 'format' || token.name === 'output'),
      )
        ? (tokens ?? [])
        : (config?.reports ?? []).flatMap((report) => [
            { kind: 'option', name: 'format', value: report.format },
            ...(report.output ? [{ kind: 'option', name: 'output', value: report.output }] : []),
          ]),
    ),
    gate: gateArguments(values, config),
    scenarios: values.scenario ?? [],
    progress: !values['no-progress'],
  };
  const maxRequests = number('max-requests', values['max-requests']);
  if (maxRequests !== undefined) common.maxRequests = maxRequests;
  const rate = number('rate', values.rate);
  if (rate !== undefined) common.rate = rate;
  const timeoutMs = number('timeout', values.timeout, 1000);
  if (timeoutMs !== undefined) common.timeoutMs = timeoutMs;
  const webhookTimeoutMs = number('webhook-timeout', values['webhook-timeout'], 1000);
  if (webhookTimeoutMs !== undefined) common.webhookTimeoutMs = webhookTimeoutMs;
  const deadlineMs = number('deadline', values.deadline, 60_000);
  if (deadlineMs !== undefined) common.deadlineMs = deadlineMs;
  if (values['webhook-url'] !== undefined) common.webhookUrl = values['webhook-url'];
  if (values['webhook-listen'] !== undefined) common.webhookListen = values['webhook-listen'];
  if (name === 'check') {
    for (const option of ['against', 'against-key', 'against-webhook-url'] as const) {
      if (values[option] !== undefined)
        throw new ConfigurationError(`--${option} belongs to compare, not check`);
    }
    return { name, ...common };
  }
  for (const option of ['baseline', 'update-baseline'] as const) {
    if (parsed.values[option] !== undefined)
      throw new ConfigurationError(`--${option} belongs to check, not compare`);
  }
  const against = values.against;
  if (!against) throw new ConfigurationError('compare needs --against MOCK_URL: the second target');
  // compare writes one report, as text, markdown or json: refuse what it would silently ignore.
  const [report, ...more] = common.reports;
  if (more.length > 0 || (report && !COMPARE_FORMATS.includes(report.format))) {
    throw new ConfigurationError(
      `compare writes one report: --format ${COMPARE_FORMATS.join(', ')}, with or without --output`,
    );
  }
  // --key belongs to --base-url: the second target gets its own key, never the first one's.
  const againstKey = values['against-key'] ?? env.PAYMENT_SERVICE_AGAINST_API_KEY;
  if (!againstKey) {
    throw new ConfigurationError(
      'compare needs --against-key KEY (or PAYMENT_SERVICE_AGAINST_API_KEY): the --against target gets its own sk_test_ key; --key is never sent to it',
    );
  }
  return {
    name,
    ...common,
    against,
    againstKey,
    ...(values['against-webhook-url'] ? { againstWebhookUrl: values['against-webhook-url'] } : {}),
  };
}
