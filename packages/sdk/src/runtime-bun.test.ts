// A smoke test of the built SDK in Bun (from npm), against the mock over HTTP: create, retry, error mapping, User-Agent.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { inCi, requireBuiltSdk } from './test-support/built.js';
import { sdkVersion } from './version.js';

/** The Bun binary shipped by the npm package's platform dependency (its postinstall never runs under pnpm). */
function findBun(): string | undefined {
  try {
    const require = createRequire(createRequire(import.meta.url).resolve('bun/package.json'));
    const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
    for (const variant of ['', '-baseline', '-musl']) {
      try {
        const binary = require.resolve(`@oven/bun-${process.platform}-${arch}${variant}/bin/bun`);
        if (existsSync(binary)) return binary;
      } catch {
        // Not this variant.
      }
    }
  } catch {
    // The bun package is not installed.
  }
  return undefined;
}

const bun = findBun();
if (!bun && !inCi)
  console.warn('\n!!! SKIPPING the Bun smoke test: the bun npm package is not installed !!!\n');

/** Runs in Bun: imports the built SDK, creates a payment through one injected 503, maps a 404. */
const script = (entry: string) => `
import { createClient, NotFoundError } from ${JSON.stringify(pathToFileURL(entry).href)};
const userAgents = [];
const statuses = [];
const client = createClient({
  apiKey: process.env.SDK_API_KEY,
  baseUrl: process.env.SDK_BASE_URL,
  fetch: (input, init) => { userAgents.push(new Request(input, init).headers.get('user-agent')); return fetch(input, init); },
  logger: (entry) => statuses.push(entry.status),
});
await fetch(process.env.SDK_BASE_URL + '/_sandbox/faults', {
  method: 'PUT',
  headers: { authorization: 'Bearer ' + process.env.SDK_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ fail_next: { count: 1, status: 503, retry_after: 0 } }),
});
const payment = await client.payments.create({
  amount: 1000, currency: 'RUB', capture: true,
  payment_method: { type: 'token', token: 'tok_test_success' },
});
const missing = await client.payments.retrieve('pay_missing').catch((error) => error);
console.log(JSON.stringify({
  status: payment.status,
  statuses,
  notFound: missing instanceof NotFoundError,
  userAgent: userAgents[0],
  subtle: typeof crypto.subtle.sign,
  bun: process.versions.bun,
}));
`;

describe.skipIf(!bun && !inCi)('the built SDK in Bun', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a payment through a retried 503 and maps a 404', async () => {
    if (!bun)
      throw new Error('CI needs the bun npm package (a devDependency of @payment-service/sdk)');
    const directory = temporaryDirectory('sdk-bun-');
    const file = join(directory, 'smoke.mjs');
    await writeFile(file, script(requireBuiltSdk()));
    // Asynchronous: the mock answers from this very process.
    const run = await promisify(execFile)(bun, ['run', file], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, SDK_API_KEY: 'sk_test_bunsmoke1', SDK_BASE_URL: server.url },
    });
    expect(run.stderr).toBe('');
    const outcome = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    expect(outcome).toMatchObject({
      status: 'SUCCEEDED',
      statuses: [503, 201, 404],
      notFound: true,
      subtle: 'function',
    });
    expect(outcome.userAgent).toBe(`payment-service-sdk/${sdkVersion} bun/${outcome.bun}`);
  }, 60_000);
});
