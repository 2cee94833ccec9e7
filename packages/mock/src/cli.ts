#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { formatTokenTable } from './domain/tokens.js';
import { newTestApiKey } from './ids.js';
// The `payment-service-mock` command: serves the sandbox over HTTP and logs one line per request.
import { createLineWriter } from './line-writer.js';
import { startMockServer } from './node.js';
import { DEFAULT_ENDPOINT_ID, generateWebhookSecret } from './webhooks/default-endpoint.js';
import { parseSigningSecret } from './webhooks/signing.js';

const HELP = `payment-service-mock — a local sandbox of the payment service's API

Usage: payment-service-mock [options]

Options:
  --port <port>                 Port to listen on (default: $PORT or 4010; 0 picks a free port)
  --host <host>                 Interface to listen on (default: 127.0.0.1)
  --settlement-delay <seconds>  Seconds before pending test payments settle (default: 5)
  --webhook-url <url>           Send every key's webhook events to this URL (local development)
  --webhook-secret <whsec_…>    Its signing secret (default: a new one, printed at start-up)
  --quiet                       Do not log requests
  --help                        Show this help
`;

function fail(message: string): never {
  process.stderr.write(`payment-service-mock: ${message}\n\n${HELP}`);
  process.exit(2);
}

function parseNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !Number.isFinite(value)) {
    fail(`--${name} must be a non-negative number; got "${text}"`);
  }
  return value;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'settlement-delay': { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-secret': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = parseNumber('port', (values.port as string | undefined) ?? process.env.PORT, 4010);
  if (!Number.isInteger(port) || port > 65_535) fail(`--port must be an integer 0..65535`);
  const settlementDelaySeconds = parseNumber(
    'settlement-delay',
    values['settlement-delay'] as string | undefined,
    5,
  );
  const quiet = values.quiet === true;
  const webhookUrl = values['webhook-url'] as string | undefined;
  let webhookSecret = values['webhook-secret'] as string | undefined;
  if (webhookUrl !== undefined) {
    if (!/^https?:\/\/\S+$/.test(webhookUrl) || !URL.canParse(webhookUrl)) {
      fail(`--webhook-url must be an absolute http:// or https:// URL`);
    }
    if (webhookSecret !== undefined && parseSigningSecret(webhookSecret) === undefined) {
      fail('--webhook-secret must be whsec_ followed by base64');
    }
    webhookSecret ??= generateWebhookSecret();
  } else if (webhookSecret !== undefined) {
    fail('--webhook-secret needs --webhook-url');
  }

  const requestLog = quiet ? undefined : createLineWriter(process.stdout);
  const server = await startMockServer({
    port,
    hostname: values.host as string,
    settlementDelaySeconds,
    ...(webhookUrl === undefined ? {} : { webhookUrl, webhookSecret }),
    logger: requestLog,
  });
  const apiKey = newTestApiKey();
  process.stdout.write(
    [
      `Payment service mock sandbox listening on ${server.url}`,
      '',
      `Base URL:  ${server.url}`,
      `Test key:  ${apiKey}   (any sk_test_ key works; each key has its own isolated data)`,
      `Settlement delay for pending tokens: ${settlementDelaySeconds}s (sandbox clock)`,
      '',
      'Test tokens (payment_method.token):',
      formatTokenTable(),
      '',
      'Try it:',
      `  curl -s ${server.url}/v1/payments \\`,
      `    -H "Authorization: Bearer ${apiKey}" \\`,
      `    -H "Content-Type: application/json" \\`,
      `    -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s)" \\`,
      `    -d '{"amount":1000,"currency":"KZT","payment_method":{"type":"token","token":"tok_test_success"}}'`,
      '',
      'Sandbox controls: /_sandbox/reset, /_sandbox/clock, /_sandbox/clock/advance, /_sandbox/faults,',
      '  /_sandbox/webhook_deliveries, /_sandbox/events/{id}/redeliver',
      '',
      ...(webhookUrl === undefined
        ? []
        : [
            `Webhooks:  every key's events are POSTed to ${webhookUrl} (endpoint ${DEFAULT_ENDPOINT_ID})`,
            `Webhook signing secret:  ${webhookSecret}`,
            '  (verify with webhooks.verify(rawBody, headers, secret) from @payment-service/sdk;',
            '   pass --webhook-secret to keep it across restarts)',
            '',
          ]),
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    requestLog?.flush();
    if (!quiet) process.stdout.write(`\nReceived ${signal}, shutting down.\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  process.stderr.write(
    `payment-service-mock: could not start: ${code === 'EADDRINUSE' ? 'the port is already in use' : (error as Error).message}\n`,
  );
  process.exit(1);
});
