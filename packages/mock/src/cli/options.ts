// Reads the `payment-service-mock` command line and environment into server options, naming the flag at fault.
import { closeSync, openSync, readSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { REDIS_PREFIX } from '../app/options.js';
import { type AllowedHosts, hostnameOf } from '../server/allowed-hosts.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../server/limits.js';
import { maskUrl } from '../shared/secrets.js';
import { parseRedisUrl, withRedisPassword } from '../store/redis/url.js';
import { parseSigningSecret } from '../webhooks/signing.js';

/** The help text; every flag the CLI accepts. */
export const HELP = `payment-service-mock — a local sandbox of the payment service's API

Usage: payment-service-mock [options]
       payment-service-mock backup --data-dir <dir> --to <new dir>   (a consistent copy, even while it runs)

Options:
  --port <port>                 Port to listen on (default: $PORT or 4010; 0 picks a free port)
  --host <host>                 Interface to listen on (default: 127.0.0.1; other values expose the
                                sandbox to the network, with a warning)
  --allowed-hosts <names>       Host names to answer besides loopback ones, comma-separated (.example.test
                                allows its subdomains), or "any" (default: loopback names only on a
                                loopback --host, any name otherwise; others get 421 host_not_allowed)
  --settlement-delay <seconds>  Seconds before pending test payments settle (default: 5)
  --webhook-url <url>           Send every key's webhook events to this URL (local development)
  --webhook-secret <whsec_…>    Its signing secret (default: a new one, printed at start-up)
  --allow-private-webhook-urls  Let keys register webhook endpoints on private networks (10/8, 172.16/12,
                                192.168/16, fc00::/7, 100.64/10); by default only public addresses and
                                this machine (loopback, only when --host is a loopback address),
                                checked where each name resolves when sent
  --allow-loopback-webhook-urls Let keys register webhook endpoints on this machine's loopback even when
                                --host exposes the sandbox (anyone who reaches it can then make it
                                call the services listening on this machine)
  --data-dir <dir>              Keep every key's data in this directory across restarts (default:
                                $PAYMENT_SERVICE_MOCK_DATA_DIR, else in memory only); one process per directory
  --redis-url <url>             Keep every key's data on a Valkey 7/8 or Redis 7 server, shared by every
                                instance given the same URL and prefix (a fleet behind a load balancer):
                                redis://[user:password@]host:port[/db] or rediss://… (default:
                                $PAYMENT_SERVICE_MOCK_REDIS_URL); the password is never printed; not with --data-dir.
                                A password here is in every process listing (ps): put it in a file or
                                $PAYMENT_SERVICE_MOCK_REDIS_PASSWORD, or pass the URL in the variable
  --redis-password-file <path>  Read the store's password from this file (one line; default:
                                $PAYMENT_SERVICE_MOCK_REDIS_PASSWORD), keeping it out of the command line
  --redis-prefix <prefix>       What every key the sandbox writes there starts with (default: psm:)
  --memory-budget <MiB>         Memory for the whole sandbox's data (default: 256)
  --key-memory-budget <MiB>     Memory for one key's data (default: 16)
  --headers-timeout <ms>        Time a client has to send its headers (default: ${DEFAULT_HTTP_LIMITS.headersTimeoutMs})
  --request-timeout <ms>        Time a client has to send its whole request (default: ${DEFAULT_HTTP_LIMITS.requestTimeoutMs})
  --keep-alive-timeout <ms>     Idle time before a keep-alive connection is closed (default: ${DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs})
  --max-connections <n>         Connections open at once (default: ${DEFAULT_HTTP_LIMITS.maxConnections})
  --max-pipelined <n>           Requests queued per connection before it is no longer read (default: ${DEFAULT_HTTP_LIMITS.maxPipelined})
  --max-header-size <bytes>     Size of a request's line and headers; larger is a 400 (default: ${DEFAULT_HTTP_LIMITS.maxHeaderBytes})
  --max-unsent-bytes <bytes>    Unread answer bytes a connection may hold before none of its further
                                requests start (default: ${DEFAULT_HTTP_LIMITS.maxUnsentBytes})
  --write-timeout <ms>          Answer bytes left unread this long close the connection (default: ${DEFAULT_HTTP_LIMITS.writeTimeoutMs})
  --quiet                       Do not log requests
  --ready-json                  Once listening, print one JSON line on stdout: {"url", "key",
                                "webhook_secret"} (null without --webhook-url); the banner and the
                                request log go to stderr instead, so stdout's first line parses
  -v, --version                 Print the version
  -h, --help                    Show this help
`;

/** What the command line asks for. */
export type CliRequest =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'serve'; settings: CliSettings }
  | { kind: 'error'; message: string };

/** The settings of a serving CLI. */
export interface CliSettings {
  port: number;
  /** Where the port came from, for error messages: `--port`, `$PORT` or the default. */
  portSource: string;
  host: string;
  /** Host names answered besides loopback ones, or 'any' (undefined: the default for --host). */
  allowedHosts?: AllowedHosts;
  settlementDelaySeconds: number;
  webhookUrl?: string;
  webhookSecret?: string;
  memoryBudgetBytes?: number;
  keyMemoryBudgetBytes?: number;
  http: HttpLimits;
  quiet: boolean;
  /** `--ready-json`: one JSON line on stdout once listening; everything else on stderr. */
  readyJson: boolean;
  allowPrivateWebhookUrls: boolean;
  /** Loopback endpoints on a network --host too (undefined: only on a loopback --host). */
  allowLoopbackWebhookUrls?: true;
  /** The data directory (`--data-dir` or `$PAYMENT_SERVICE_MOCK_DATA_DIR`), if any. */
  dataDir?: string;
  /** The Valkey/Redis store (`--redis-url` or `$PAYMENT_SERVICE_MOCK_REDIS_URL`), if any. */
  redisUrl?: string;
  /** `--redis-prefix`, if given. */
  redisPrefix?: string;
  /** `--redis-password-file`: where the store's password is read before connecting. */
  redisPasswordFile?: string;
  /** The URL on the command line holds a password (every process listing shows it): warned. */
  redisPasswordInArgs?: true;
  /** The data directory (`--data-dir` or `$PAYMENT_SERVICE_MOCK_DATA_DIR`), if any. */
}

class CliError extends Error {}

/** The longest password file read (a password is one line). */
const MAX_PASSWORD_FILE_BYTES = 4096;

/**
 * The password in `path` (`--redis-password-file`): its one line, without the line break. A
 * missing, unreadable, empty, multi-line or oversized file throws an error naming the path and
 * what is wrong, never what it holds.
 *
 * @example
 * readPasswordFile('/run/secrets/redis'); // 's3cret'
 */
export function readPasswordFile(path: string): string {
  const where = `--redis-password-file ${path}`;
  let bytes: Buffer;
  try {
    const descriptor = openSync(path, 'r');
    try {
      bytes = Buffer.alloc(MAX_PASSWORD_FILE_BYTES + 1);
      bytes = bytes.subarray(0, readSync(descriptor, bytes, 0, bytes.length, 0));
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    throw new Error(
      `${where}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (bytes.length > MAX_PASSWORD_FILE_BYTES) {
    throw new Error(
      `${where}: over ${MAX_PASSWORD_FILE_BYTES} bytes; it must hold the password alone`,
    );
  }
  const password = bytes.toString('utf8').replace(/\r?\n$/, '');
  if (password === '') throw new Error(`${where}: is empty; it must hold the password`);
  if (/[\r\n]/.test(password)) {
    throw new Error(`${where}: holds more than one line; it must hold the password alone`);
  }
  return password;
}

/**
 * Where the store's password comes from besides the URL: `--redis-password-file` (read at
 * start), else `$PAYMENT_SERVICE_MOCK_REDIS_PASSWORD` (joined to the URL here). Either with a
 * URL that holds a password already is refused: which one would win is not clear.
 */
function readRedisPassword(
  settings: CliSettings,
  file: string | undefined,
  variable: string | undefined,
): void {
  const fromVariable = variable !== undefined && variable !== '';
  if (file === undefined && !fromVariable) return;
  const source =
    file === undefined ? '$PAYMENT_SERVICE_MOCK_REDIS_PASSWORD' : '--redis-password-file';
  if (settings.redisUrl === undefined) {
    throw new CliError(`${source} needs --redis-url (or $PAYMENT_SERVICE_MOCK_REDIS_URL)`);
  }
  if (parseRedisUrl(settings.redisUrl).password !== undefined) {
    throw new CliError(
      `${source} and a password in the store URL cannot be used together: give the password once (the URL without it)`,
    );
  }
  if (file !== undefined) {
    if (file.trim() === '') throw new CliError('--redis-password-file needs a file path');
    settings.redisPasswordFile = file;
  } else {
    settings.redisUrl = withRedisPassword(settings.redisUrl, variable as string);
  }
}

const MIB = 1024 * 1024;

function numberFrom(
  source: string,
  text: string,
  { integer = true, min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number {
  const pattern = integer ? /^[0-9]+$/ : /^[0-9]+(\.[0-9]+)?$/;
  const value = Number(text);
  if (!pattern.test(text) || value < min || value > max) {
    const kind = integer ? 'an integer' : 'a number';
    throw new CliError(`${source} must be ${kind} from ${min} to ${max}; got "${text}"`);
  }
  return value;
}

const INTEGER_FLAGS = {
  'headers-timeout': ['headersTimeoutMs', 1],
  'request-timeout': ['requestTimeoutMs', 1],
  'keep-alive-timeout': ['keepAliveTimeoutMs', 1],
  'max-connections': ['maxConnections', 1],
  'max-pipelined': ['maxPipelined', 1],
  'max-header-size': ['maxHeaderBytes', 1024],
  'max-unsent-bytes': ['maxUnsentBytes', 16_384],
  'write-timeout': ['writeTimeoutMs', 1],
} as const satisfies Record<string, [keyof HttpLimits, number]>;

/**
 * Reads the command line (without `node` and the script) and the environment.
 *
 * @example
 * readCli(['--port', '0'], {}); // { kind: 'serve', settings: { port: 0, … } }
 */
export function readCli(args: string[], env: Record<string, string | undefined>): CliRequest {
  try {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'allowed-hosts': { type: 'string' },
        'settlement-delay': { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-secret': { type: 'string' },
        'memory-budget': { type: 'string' },
        'data-dir': { type: 'string' },
        'redis-url': { type: 'string' },
        'redis-prefix': { type: 'string' },
        'redis-password-file': { type: 'string' },
        'key-memory-budget': { type: 'string' },
        ...Object.fromEntries(
          Object.keys(INTEGER_FLAGS).map((flag) => [flag, { type: 'string' as const }]),
        ),
        quiet: { type: 'boolean', default: false },
        'ready-json': { type: 'boolean', default: false },
        'allow-private-webhook-urls': { type: 'boolean', default: false },
        'allow-loopback-webhook-urls': { type: 'boolean', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
    if (values.help) return { kind: 'help' };
    if (values.version) return { kind: 'version' };
    const flag = (name: string) => (values as Record<string, unknown>)[name] as string | undefined;

    const portFlag = flag('port');
    const portSource =
      portFlag !== undefined
        ? '--port'
        : env.PORT !== undefined && env.PORT !== ''
          ? '$PORT'
          : 'the default';
    const portText = portFlag ?? (portSource === '$PORT' ? (env.PORT as string) : '4010');
    const port = numberFrom(portSource, portText, { max: 65_535 });

    const http = { ...DEFAULT_HTTP_LIMITS };
    for (const [name, [key, min]] of Object.entries(INTEGER_FLAGS)) {
      const text = flag(name);
      if (text !== undefined) http[key] = numberFrom(`--${name}`, text, { min });
    }
    if (http.headersTimeoutMs > http.requestTimeoutMs) {
      throw new CliError(
        `--headers-timeout (${http.headersTimeoutMs} ms) must not exceed --request-timeout (${http.requestTimeoutMs} ms)`,
      );
    }

    const settings: CliSettings = {
      port,
      portSource,
      host: flag('host') as string,
      settlementDelaySeconds: numberFrom('--settlement-delay', flag('settlement-delay') ?? '5', {
        integer: false,
      }),
      http,
      quiet: values.quiet === true,
      readyJson: values['ready-json'] === true,
      allowPrivateWebhookUrls: values['allow-private-webhook-urls'] === true,
    };
    if (values['allow-loopback-webhook-urls'] === true) settings.allowLoopbackWebhookUrls = true;
    const allowedHosts = flag('allowed-hosts');
    if (allowedHosts !== undefined) settings.allowedHosts = parseAllowedHosts(allowedHosts);
    const dataDir = flag('data-dir') ?? env.PAYMENT_SERVICE_MOCK_DATA_DIR;
    if (dataDir !== undefined && dataDir.trim() !== '') settings.dataDir = dataDir;
    else if (flag('data-dir') !== undefined)
      throw new CliError('--data-dir needs a directory path');
    const redisUrl = flag('redis-url') ?? env.PAYMENT_SERVICE_MOCK_REDIS_URL;
    if (redisUrl !== undefined && redisUrl.trim() !== '') {
      const source =
        flag('redis-url') !== undefined ? '--redis-url' : '$PAYMENT_SERVICE_MOCK_REDIS_URL';
      try {
        parseRedisUrl(redisUrl);
      } catch (error) {
        throw new CliError(`${source}: ${(error as Error).message}`);
      }
      if (settings.dataDir !== undefined) {
        throw new CliError(
          `${source} and --data-dir (or $PAYMENT_SERVICE_MOCK_DATA_DIR) cannot be used together: the data lives in one store`,
        );
      }
      settings.redisUrl = redisUrl;
      if (flag('redis-url') !== undefined && parseRedisUrl(redisUrl).password !== undefined) {
        settings.redisPasswordInArgs = true;
      }
    } else if (flag('redis-url') !== undefined) {
      throw new CliError('--redis-url needs a redis:// or rediss:// URL');
    }
    readRedisPassword(
      settings,
      flag('redis-password-file'),
      env.PAYMENT_SERVICE_MOCK_REDIS_PASSWORD,
    );
    const redisPrefix = flag('redis-prefix');
    if (redisPrefix !== undefined) {
      if (!REDIS_PREFIX.test(redisPrefix)) {
        throw new CliError(
          '--redis-prefix must be 1 to 64 printable ASCII characters without spaces',
        );
      }
      if (settings.redisUrl === undefined) {
        throw new CliError('--redis-prefix needs --redis-url (or $PAYMENT_SERVICE_MOCK_REDIS_URL)');
      }
      settings.redisPrefix = redisPrefix;
    }
    const budget = flag('memory-budget');
    if (budget !== undefined)
      settings.memoryBudgetBytes = numberFrom('--memory-budget', budget, { min: 1 }) * MIB;
    const keyBudget = flag('key-memory-budget');
    if (keyBudget !== undefined) {
      settings.keyMemoryBudgetBytes =
        numberFrom('--key-memory-budget', keyBudget, { min: 1 }) * MIB;
    }

    const webhookUrl = flag('webhook-url');
    const webhookSecret = flag('webhook-secret');
    if (webhookUrl !== undefined) {
      if (!/^https?:\/\/\S+$/i.test(webhookUrl) || !URL.canParse(webhookUrl)) {
        throw new CliError(
          `--webhook-url must be an absolute http:// or https:// URL; got "${maskUrl(webhookUrl)}"`,
        );
      }
      if (webhookSecret !== undefined && parseSigningSecret(webhookSecret) === undefined) {
        throw new CliError(
          '--webhook-secret must be whsec_ followed by the base64 of at least 16 bytes',
        );
      }
      settings.webhookUrl = webhookUrl;
      if (webhookSecret !== undefined) settings.webhookSecret = webhookSecret;
    } else if (webhookSecret !== undefined) {
      throw new CliError('--webhook-secret needs --webhook-url');
    }
    return { kind: 'serve', settings };
  } catch (error) {
    if (
      error instanceof CliError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      return { kind: 'error', message: (error as Error).message };
    }
    throw error;
  }
}

/** `--allowed-hosts`: `any`, or host names separated by commas. */
function parseAllowedHosts(text: string): AllowedHosts {
  if (text.trim().toLowerCase() === 'any') return 'any';
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (hostnameOf(name.replace(/^\./, '')) !== name.replace(/^\./, '').toLowerCase()) {
      throw new CliError(
        `--allowed-hosts takes host names without scheme or port, separated by commas, or "any"; got "${name}"`,
      );
    }
  }
  if (names.length === 0)
    throw new CliError('--allowed-hosts needs at least one host name, or "any"');
  return names;
}
