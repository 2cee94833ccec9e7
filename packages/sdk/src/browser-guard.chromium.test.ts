// The browser guard in a real headless Chromium: the built SDK, loaded into a page, refuses to construct unless told it is dangerous.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../test-support/temporary-directory.js';
import { bundleWithSdk, inCi } from './test-support/built.js';

/** Debian's chromium and its launch flags, shared by the repository's browser tests. */
const { executablePath, args: chromiumArgs } = JSON.parse(
  readFileSync(new URL('../../../test-support/chromium.json', import.meta.url), 'utf8'),
) as { executablePath: string; args: string[] };
const hasChromium = existsSync(executablePath);
if (!hasChromium && !inCi) {
  console.warn(
    `\n!!! SKIPPING the browser guard test: ${executablePath} is missing. Install it with: apt-get install -y chromium (CI fails without it) !!!\n`,
  );
}

const apiKey = 'sk_test_BrowserGuardS3cret';

describe.skipIf(!hasChromium && !inCi)('browser guard in headless Chromium', () => {
  let server: Server;
  let origin: string;
  let context: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI needs Debian's chromium at ${executablePath}`);
    const sdk = await bundleWithSdk("export * from '@payment-service/sdk';");
    server = createServer((request, response) => {
      if (request.url === '/sdk.js') {
        response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(sdk);
      } else {
        response
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end('<!doctype html><title>guard</title>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    userDataDir = temporaryDirectory('sdk-chromium-');
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: chromiumArgs,
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('refuses to construct a client in a page, and constructs with dangerouslyAllowBrowser', async () => {
    const page = await context.newPage();
    await page.goto(origin);
    // A string, not a function: vitest would rewrite a function's import() for Node.
    const outcome: Record<string, unknown> = await page.evaluate(`(async () => {
      const sdk = await import('/sdk.js');
      const options = { apiKey: ${JSON.stringify(apiKey)}, baseUrl: location.origin };
      let refused = '';
      try {
        sdk.createClient(options);
      } catch (error) {
        refused = String(error);
      }
      const allowed = sdk.createClient({ ...options, dangerouslyAllowBrowser: true });
      return {
        refused,
        allowed: String(allowed),
        hasPayments: typeof allowed.payments.create === 'function',
        userAgent: navigator.userAgent,
      };
    })()`);
    expect(outcome.userAgent).toContain('Chrome');
    expect(outcome.refused).toContain('createClient refuses to run in a browser');
    expect(outcome.refused).toContain('dangerouslyAllowBrowser: true');
    expect(outcome.refused).not.toContain('BrowserGuardS3cret');
    expect(outcome.hasPayments).toBe(true);
    expect(outcome.allowed).toContain('sk_test_…');
    expect(outcome.allowed).not.toContain('BrowserGuardS3cret');
    await page.close();
  });
});
