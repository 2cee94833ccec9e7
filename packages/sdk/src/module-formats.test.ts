// The built package loads as ESM and through require() (Node >= 20.19), and its errors pass instanceof across both.
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { bundleWithSdk, requireBuiltSdk } from './test-support/built.js';

describe('module formats of the built package', () => {
  it('is required from CommonJS and shares instanceof with the ESM import', async () => {
    const entry = requireBuiltSdk();
    const esm = await import(entry);
    const require = createRequire(import.meta.url);
    const cjs = require(entry);
    expect(typeof cjs.createClient).toBe('function');
    const fromCjs = new cjs.TimeoutError('timeout', { code: 'timeout' });
    expect(fromCjs).toBeInstanceOf(esm.TimeoutError);
    expect(fromCjs).toBeInstanceOf(esm.ConnectionError);
    expect(new esm.RateLimitError('x', { code: 'rate_limited' })).toBeInstanceOf(
      cjs.PaymentServiceError,
    );
  });

  it('recognises errors from another copy of the built package (instanceof by brand)', async () => {
    const first = await import(requireBuiltSdk());
    // A bundle holds its own copy of every module, as a second install of the package would.
    const directory = temporaryDirectory('sdk-copy-');
    const copy = join(directory, 'sdk-copy.mjs');
    await writeFile(copy, await bundleWithSdk("export * from '@payment-service/sdk';", false));
    const second = await import(pathToFileURL(copy).href);
    expect(second.AbortedError).not.toBe(first.AbortedError);
    const foreign = new second.AbortedError('aborted', { code: 'aborted' });
    expect(foreign).toBeInstanceOf(first.AbortedError);
    expect(foreign).toBeInstanceOf(first.PaymentServiceError);
    expect(foreign).not.toBeInstanceOf(first.ConnectionError);
  });

  it('loads the Node entry (@payment-service/sdk/node) as ESM and through require()', async () => {
    const entry = requireBuiltSdk().replace(/index\.js$/, 'node.js');
    const esm = await import(entry);
    const cjs = createRequire(import.meta.url)(
      entry.replace(/dist[\\/]node\.js$/, 'dist/cjs/node.js'),
    );
    for (const loaded of [esm, cjs]) {
      expect(typeof loaded.startWebhookReceiver).toBe('function');
      const receiver = await loaded.startWebhookReceiver();
      expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      await receiver.close();
    }
  });
});
