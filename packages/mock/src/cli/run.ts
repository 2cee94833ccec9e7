// The sandbox server of the `payment-service-mock` command: serves over HTTP, logs one line per request, stops cleanly on signals.
import { networkInterfaces } from 'node:os';
import { formatTokenTable } from '../domain/tokens.js';
import { isLoopbackHost } from '../server/allowed-hosts.js';
import { type RunningMockServer, startMockServer } from '../server/node-server.js';
import { newTestApiKey } from '../shared/ids.js';
import { createLineWriter, type LineSink } from '../shared/line-writer.js';
import { maskUrl } from '../shared/secrets.js';
import { mockVersion } from '../shared/version.js';
import { DEFAULT_PREFIX } from '../store/redis/keys.js';
import { describeRedisUrl, parseRedisUrl, withRedisPassword } from '../store/redis/url.js';
import { DEFAULT_ENDPOINT_ID, generateWebhookSecret } from '../webhooks/default-endpoint.js';
import { runBackup } from './backup.js';
import { watchLauncher } from './launcher-watch.js';
import { type LogDrops, safeProcessOutput } from './log-output.js';
import { type CliSettings, HELP, readCli, readPasswordFile } from './options.js';

/** How long requests in flight may take to finish after SIGTERM or SIGINT. */
const SHUTDOWN_GRACE_MS = 5000;

/** Where the CLI writes: `process.stdout` and `process.stderr`, or fakes in tests. */
export interface CliOutput {
  stdout: LineSink;
  stderr: LineSink;
}

/** What `--ready-json` prints, as one line on stdout, once the sandbox listens. */
export interface ReadyLine {
  /** The base URL to send requests to. */
  url: string;
  /** A ready-to-use `sk_test_` key (any other works too). */
  key: string;
  /** The signing secret of `--webhook-url`'s endpoint, or null without one. */
  webhook_secret: string | null;
}

/**
 * The `--ready-json` line: one JSON object and a newline.
 *
 * @example
 * readyLine({ url: 'http://127.0.0.1:4010', key: 'sk_test_…', webhook_secret: null });
 */
export function readyLine(ready: ReadyLine): string {
  return `${JSON.stringify(ready)}\n`;
}

function fail(message: string): never {
  process.stderr.write(
    `payment-service-mock: ${message}\n(run payment-service-mock --help for every option)\n`,
  );
  process.exit(2);
}

/** Addresses other machines may use when the sandbox listens on every interface. */
function networkAddresses(port: number): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && entry.family === 'IPv4')
    .map((entry) => `http://${entry.address}:${port}`);
}

function startError(error: unknown, settings: CliSettings): string {
  const { code, syscall } = error as NodeJS.ErrnoException;
  // Only the socket's own errors are about the port or the host (an EACCES on a file is not).
  const network = syscall === 'listen' || syscall === 'bind' || syscall === 'getaddrinfo';
  if (!network) return storeError(error, settings);
  const port = `port ${settings.port} (from ${settings.portSource})`;
  if (code === 'EADDRINUSE')
    return `${port} is already in use on ${settings.host}; choose another with --port or $PORT`;
  if (code === 'EACCES')
    return `${port} needs privileges to listen on; choose one above 1023 with --port or $PORT`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `--host ${settings.host} is not an address of this machine`;
  }
  return storeError(error, settings);
}

/** Why the store (the data directory, Valkey/Redis) could not be opened. */
function storeError(error: unknown, settings: CliSettings): string {
  // A store error names the URL with its password masked already; this masks any other copy.
  const message = (error as Error).message;
  return settings.redisUrl === undefined ? message : maskPassword(message, settings.redisUrl);
}

/** The text with every occurrence of the Redis URL's password replaced by `***`. */
function maskPassword(text: string, redisUrl: string): string {
  let password: string | undefined;
  try {
    password = parseRedisUrl(redisUrl).password;
  } catch {
    return text;
  }
  return password === undefined || password === '' ? text : text.split(password).join('***');
}

async function serve(settings: CliSettings, given: CliOutput): Promise<RunningMockServer> {
  // A write to stdout or stderr that fails (a full disk under a redirected log, a closed pipe)
  // is dropped and counted, shown in /_sandbox/health: logging never stops the sandbox.
  const drops: LogDrops = { droppedLines: 0, lastError: undefined };
  const output = given === process ? safeProcessOutput(drops) : given;
  // With --ready-json, stdout carries the ready line alone: the banner and the log go to stderr.
  const log = settings.readyJson ? output.stderr : output.stdout;
  const requestLog = settings.quiet ? undefined : createLineWriter(log);
  // Signals are handled from the start: one that arrives before the server listens still exits 0.
  let server: RunningMockServer | undefined;
  let stopping = false;
  const stop = (cause: string) => {
    if (stopping) return;
    stopping = true;
    requestLog?.flush();
    if (server === undefined) process.exit(0);
    if (!settings.quiet) {
      const received = cause.startsWith('SIG') ? `Received ${cause}` : `Stopping on ${cause}`;
      log.write(`\n${received}: finishing requests in flight, then stopping.\n`);
    }
    server.close({ graceMs: SHUTDOWN_GRACE_MS }).then(
      () => {
        requestLog?.flush();
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(
          `payment-service-mock: error while stopping: ${(error as Error).message}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Under npx a SIGTERM stops npm and its shell but never reaches node: their exit stops it too.
  watchLauncher(process.env, () => stop('the exit of its launcher (npx, npm exec, a shell)'));

  const webhookSecret =
    settings.webhookUrl === undefined
      ? undefined
      : (settings.webhookSecret ?? generateWebhookSecret());
  const limits = {
    ...(settings.memoryBudgetBytes === undefined
      ? {}
      : { memoryBudgetBytes: settings.memoryBudgetBytes }),
    ...(settings.keyMemoryBudgetBytes === undefined
      ? {}
      : { keyMemoryBudgetBytes: settings.keyMemoryBudgetBytes }),
  };
  if (settings.redisPasswordFile !== undefined && settings.redisUrl !== undefined) {
    try {
      settings.redisUrl = withRedisPassword(
        settings.redisUrl,
        readPasswordFile(settings.redisPasswordFile),
      );
    } catch (error) {
      fail((error as Error).message);
    }
  }
  if (settings.redisPasswordInArgs === true) {
    output.stderr.write(
      'payment-service-mock: warning: the password in --redis-url is shown to every user of this machine (ps, /proc). ' +
        'Put it in a file given by --redis-password-file, or in $PAYMENT_SERVICE_MOCK_REDIS_PASSWORD, or pass the whole URL in $PAYMENT_SERVICE_MOCK_REDIS_URL.\n',
    );
  }
  server = await startMockServer({
    port: settings.port,
    hostname: settings.host,
    ...(settings.allowedHosts === undefined ? {} : { allowedHosts: settings.allowedHosts }),
    settlementDelaySeconds: settings.settlementDelaySeconds,
    allowPrivateWebhookUrls: settings.allowPrivateWebhookUrls,
    ...(settings.allowLoopbackWebhookUrls === true ? { allowLoopbackWebhookUrls: true } : {}),
    http: settings.http,
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
    ...(settings.dataDir === undefined ? {} : { dataDir: settings.dataDir }),
    ...(settings.redisUrl === undefined ? {} : { redisUrl: settings.redisUrl }),
    ...(settings.redisPrefix === undefined ? {} : { redisPrefix: settings.redisPrefix }),
    ...(settings.webhookUrl === undefined
      ? {}
      : { webhookUrl: settings.webhookUrl, webhookSecret }),
    logger: requestLog,
    logStatus: () => ({ dropped_lines: drops.droppedLines, last_error: drops.lastError ?? null }),
  }).catch((error: unknown) => fail(`could not start: ${startError(error, settings)}`));

  const exposed = !isLoopbackHost(settings.host);
  const everyInterface = settings.host === '0.0.0.0' || settings.host === '::';
  const baseUrl = everyInterface ? `http://127.0.0.1:${server.port}` : server.url;
  if (exposed) {
    output.stderr.write(
      `payment-service-mock: warning: --host ${settings.host} exposes the sandbox to the network. ` +
        'Anyone who can reach this port can use it with any sk_test_ key; bind 127.0.0.1 unless you need this. ' +
        (settings.allowLoopbackWebhookUrls === true
          ? "--allow-loopback-webhook-urls lets any caller make it POST to this machine's own services.\n"
          : "Keys' webhook endpoints may not point at this machine's loopback, and webhook answers are shown only to callers on this machine.\n"),
    );
  }
  const apiKey = newTestApiKey();
  log.write(
    [
      `Payment service mock sandbox ${mockVersion} listening on ${baseUrl}`,
      ...(everyInterface
        ? [
            '',
            `From other machines: ${networkAddresses(server.port).join(', ') || '(no network address found)'}`,
          ]
        : []),
      '',
      `Base URL:  ${baseUrl}`,
      `Console:   ${baseUrl}/   (open it in a browser: the inspector, the API reference, test tokens)`,
      `Test key:  ${apiKey}   (any sk_test_ key works; each key has its own isolated data)`,
      `Settlement delay for pending tokens: ${settings.settlementDelaySeconds}s (sandbox clock)`,
      dataLine(settings),
      '',
      'Test tokens (payment_method.token):',
      formatTokenTable(),
      '',
      'Try it:',
      `  curl -s ${baseUrl}/v1/payments \\`,
      `    -H "Authorization: Bearer ${apiKey}" \\`,
      `    -H "Content-Type: application/json" \\`,
      `    -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s)" \\`,
      `    -d '{"amount":1000,"currency":"KZT","payment_method":{"type":"token","token":"tok_test_success"}}'`,
      '',
      'Sandbox controls: /_sandbox/reset, /_sandbox/clock, /_sandbox/clock/advance, /_sandbox/faults,',
      '  /_sandbox/webhook_deliveries, /_sandbox/events/{id}/redeliver, /_sandbox/inspector, /_sandbox/health',
      '',
      ...(settings.webhookUrl === undefined
        ? []
        : [
            `Webhooks:  every key's events are POSTed to ${maskUrl(settings.webhookUrl)} (endpoint ${DEFAULT_ENDPOINT_ID})`,
            `Webhook signing secret:  ${webhookSecret}`,
            '  (verify with webhooks.verify(rawBody, headers, secret) from @payment-service/sdk;',
            '   pass --webhook-secret to keep it across restarts)',
            '',
          ]),
      '',
    ].join('\n'),
  );
  if (settings.readyJson) {
    output.stdout.write(
      readyLine({ url: baseUrl, key: apiKey, webhook_secret: webhookSecret ?? null }),
    );
  }
  return server;
}

/**
 * Runs the command line: prints help or the version, or starts the sandbox and resolves to it
 * once it listens (a wrong option exits with status 2).
 *
 * @example
 * const server = await main(['--port', '0', '--ready-json'], process.env);
 */
export async function main(
  args: string[],
  env: Record<string, string | undefined>,
  output: CliOutput = process,
): Promise<RunningMockServer | undefined> {
  if (args[0] === 'backup') {
    const code = runBackup(args.slice(1), env, output);
    if (code !== 0) process.exit(code);
    return undefined;
  }
  const request = readCli(args, env);
  if (request.kind === 'help') output.stdout.write(HELP);
  else if (request.kind === 'version') output.stdout.write(`${mockVersion}\n`);
  else if (request.kind === 'error') fail(request.message);
  else return serve(request.settings, output);
  return undefined;
}

/**
 * The banner's line about where the data lives (a Valkey/Redis URL with its password masked).
 *
 * @example
 * dataLine({ redisUrl: 'redis://:s3cret@cache:6379' } as CliSettings); // 'Data:      on Valkey/Redis at redis://:***@cache:6379, prefix psm: (shared by every instance on it)'
 */
export function dataLine(settings: CliSettings): string {
  if (settings.redisUrl !== undefined) {
    return `Data:      on Valkey/Redis at ${describeRedisUrl(settings.redisUrl)}, prefix ${settings.redisPrefix ?? DEFAULT_PREFIX} (shared by every instance on it)`;
  }
  if (settings.dataDir !== undefined) {
    return `Data:      kept in ${settings.dataDir} (each change written before it is answered; fsync once a second)`;
  }
  return 'Data:      in memory, lost when the sandbox stops (--data-dir <dir> keeps it across restarts)';
}
