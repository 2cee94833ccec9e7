// The size budget: the built SDK with openapi-fetch, minified and gzipped, stays within 11 kB; and it tree-shakes.
// 10 kB until the secret masker learnt to read keys glued to a word, percent-encoded, JSON-escaped
// and in Basic credentials (9.9 kB before, 10.8 kB with it).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundleWithSdk } from './test-support/built.js';

/** The budget, in bytes of minified and gzipped JavaScript. */
const budgetBytes = 11_000;

describe('bundle size', () => {
  it(`keeps the whole SDK with openapi-fetch within ${budgetBytes} bytes min+gzip`, async () => {
    const code = await bundleWithSdk("export * from '@payment-service/sdk';");
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.info(
      `SDK bundle: ${code.length} bytes minified, ${gzipped} bytes min+gzip (budget ${budgetBytes})`,
    );
    expect(code).toContain('idempotency-key'); // the transport is in
    expect(gzipped).toBeLessThanOrEqual(budgetBytes);
  });

  it('tree-shakes: importing only the error classes leaves the transport and openapi-fetch out', async () => {
    const whole = await bundleWithSdk("export * from '@payment-service/sdk';");
    const errorsOnly = await bundleWithSdk(
      "export { PaymentServiceError, NotFoundError } from '@payment-service/sdk';",
    );
    expect(errorsOnly).not.toContain('idempotency-key');
    expect(errorsOnly).not.toContain('querySerializer');
    expect(errorsOnly.length).toBeLessThan(whole.length / 3);
  });
});
