// The developer's path: the built CLI with --webhook-url, a tok_test_pending payment from the SDK, and a handler that verifies payment.pending then payment.succeeded.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createClient } from '@payment-service/sdk';
import { startWebhookReceiver, type WebhookReceiver } from '@payment-service/sdk/node';
import { afterAll, describe, expect, it } from 'vitest';
import { tiedToSpawner } from '../../../../test-support/child-lifetime.js';

const cliPath = join(
  dirname(createRequire(import.meta.url).resolve('@payment-service/mock/package.json')),
  'dist/cli.js',
);

/** Starts the CLI and reads the base URL, test key and webhook secret from its banner. */
async function startCli(args: string[]) {
  const child = spawn(...tiedToSpawner(process.execPath, [cliPath, ...args]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const banner = await new Promise<{ baseUrl: string; apiKey: string; secret: string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`CLI did not start:\n${output}`)), 10_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const baseUrl = /Base URL:\s+(\S+)/.exec(output)?.[1];
        const apiKey = /Test key:\s+(sk_test_\S+)/.exec(output)?.[1];
        const secret = /Webhook signing secret:\s+(whsec_\S+)/.exec(output)?.[1];
        if (baseUrl && apiKey && secret) {
          clearTimeout(timer);
          resolve({ baseUrl, apiKey, secret });
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => reject(new Error(`CLI exited with ${code}:\n${output}`)));
    },
  );
  return { child, ...banner };
}

describe('the CLI with --webhook-url', () => {
  let child: ChildProcess | undefined;
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    child?.kill('SIGTERM');
    await receiver?.close();
  });

  it('delivers payment.pending, then payment.succeeded about a settlement delay later, both verified by the SDK', async () => {
    receiver = await startWebhookReceiver();
    const cli = await startCli([
      '--port',
      '0',
      '--quiet',
      '--settlement-delay',
      '1',
      '--webhook-url',
      receiver.url,
    ]);
    child = cli.child;
    receiver.secret = cli.secret; // what the developer copies from the banner

    const client = createClient({ apiKey: cli.apiKey, baseUrl: cli.baseUrl });
    const started = Date.now();
    const payment = await client.payments.create({
      amount: 150_000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    expect(payment.status).toBe('PENDING');

    // No further request: the mock settles on its own clock and delivers.
    const active = receiver;
    await active.waitFor(() => active.events().length === 2, 8000);
    const elapsed = Date.now() - started;
    expect(active.events().map((event) => event.type)).toEqual([
      'payment.pending',
      'payment.succeeded',
    ]);
    expect(active.refused.count).toBe(0);
    for (const event of active.events()) expect(event.data.object.id).toBe(payment.id);
    expect(elapsed).toBeGreaterThanOrEqual(900);
  });
});
