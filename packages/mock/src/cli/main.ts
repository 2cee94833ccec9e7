// The sandbox server of the `payment-service-mock` command: serves over HTTP, logs one line per request, stops cleanly on signals.
import { createRequire } from 'node:module';
import { networkInterfaces } from 'node:os';
import { formatTokenTable } from '../domain/tokens.js';
import { isLoopbackHost } from '../server/allowed-hosts.js';
import { type RunningMockServer, startMockServer } from '../server/node-server.js';
import { newTestApiKey } from '../shared/ids.js';
import { createLineWriter } from '../shared/line-writer.js';
import { maskUrl } from '../shared/secrets.js';
import { DEFAULT_ENDPOINT_ID, generateWebhookSecret } from '../webhooks/default-endpoint.js';
import { watchLauncher } from './launcher-watch.js';
import { type CliSettings, HELP, readCli } from './options.js';

/** How long requests in flight may take to finish after SIGTERM or SIGINT. */
const SHUTDOWN_GRACE_MS = 5000;

// This module runs bundled as dist/cli-bundle.js (scripts/bundle-cli.mjs): the path is from there.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

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
  const code = (error as NodeJS.ErrnoException).code;
  const port = `port ${settings.port} (from ${settings.portSource})`;
  if (code === 'EADDRINUSE')
    return `${port} is already in use on ${settings.host}; choose another with --port or $PORT`;
  if (code === 'EACCES')
    return `${port} needs privileges to listen on; choose one above 1023 with --port or $PORT`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `--host ${settings.host} is not an address of this machine`;
  }
  return (error as Error).message;
}

async function serve(settings: CliSettings): Promise<void> {
  const requestLog = settings.quiet ? undefined : createLineWriter(process.stdout);
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
      process.stdout.write(`\n${received}: finishing requests in flight, then stopping.\n`);
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
    ...(settings.webhookUrl === undefined
      ? {}
      : { webhookUrl: settings.webhookUrl, webhookSecret }),
    logger: requestLog,
  }).catch((error: unknown) => fail(`could not start: ${startError(error, settings)}`));

  const exposed = !isLoopbackHost(settings.host);
  const everyInterface = settings.host === '0.0.0.0' || settings.host === '::';
  const baseUrl = everyInterface ? `http://127.0.0.1:${server.port}` : server.url;
  if (exposed) {
    process.stderr.write(
      `payment-service-mock: warning: --host ${settings.host} exposes the sandbox to the network. ` +
        'Anyone who can reach this port can use it with any sk_test_ key; bind 127.0.0.1 unless you need this. ' +
        (settings.allowLoopbackWebhookUrls === true
          ? "--allow-loopback-webhook-urls lets any caller make it POST to this machine's own services.\n"
          : "Keys' webhook endpoints may not point at this machine's loopback, and webhook answers are shown only to callers on this machine.\n"),
    );
  }
  const apiKey = newTestApiKey();
  process.stdout.write(
    [
      `Payment service mock sandbox ${version} listening on ${baseUrl}`,
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
      settings.dataDir === undefined
        ? 'Data:      in memory, lost when the sandbox stops (--data-dir <dir> keeps it across restarts)'
        : `Data:      kept in ${settings.dataDir} (each change written before it is answered; fsync once a second)`,
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
      '  /_sandbox/webhook_deliveries, /_sandbox/events/{id}/redeliver, /_sandbox/inspector',
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
}

// A failure in a background task (a webhook delivery, a timer) is logged; the sandbox keeps serving.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `payment-service-mock: unexpected error in a background task: ${String(reason)}\n`,
  );
});

const request = readCli(process.argv.slice(2), process.env);
if (request.kind === 'help') process.stdout.write(HELP);
else if (request.kind === 'version') process.stdout.write(`${version}\n`);
else if (request.kind === 'error') fail(request.message);
else await serve(request.settings);
