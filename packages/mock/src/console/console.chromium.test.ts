// The console in a real headless Chromium (Debian's): offline, the reference with its badges, the inspector following a payment, a11y, screenshots.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startWebhookReceiver, type WebhookReceiver } from '@payment-service/sdk/node';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type RunningMockServer, startMockServer } from '../server/node-server.js';

/** Debian's chromium and its launch flags, shared by the repository's browser tests. */
const { executablePath, args: chromiumArgs } = JSON.parse(
  readFileSync(new URL('../../../../test-support/chromium.json', import.meta.url), 'utf8'),
) as { executablePath: string; args: string[] };
const hasChromium = existsSync(executablePath);
const inCi = process.env.CI === 'true' || process.env.CI === '1';
if (!hasChromium && !inCi) {
  console.warn(
    `\n!!! SKIPPING the console browser tests: ${executablePath} is missing. Install it with: apt-get install -y chromium (CI fails without it) !!!\n`,
  );
}

/** Screenshots for a person to look at: packages/mock/test-artifacts/. */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');
const API_KEY = 'sk_test_console_browser_0001';

describe.skipIf(!hasChromium && !inCi)('the console in headless Chromium', () => {
  let server: RunningMockServer;
  let receiver: WebhookReceiver;
  let context: BrowserContext;
  let userDataDir: string;
  /** Requests to anywhere but the sandbox: blocked, and counted. */
  const offOrigin: string[] = [];
  /** Every URL the browser asked for. */
  const requested: string[] = [];
  const scriptErrors: string[] = [];

  const api = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.key ?? API_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  async function openPage(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => scriptErrors.push(`${path}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') scriptErrors.push(`${path}: console: ${message.text()}`);
    });
    await page.goto(`${server.url}${path}`);
    return page;
  }

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI needs Debian's chromium at ${executablePath}`);
    await mkdir(ARTIFACTS, { recursive: true });
    server = await startMockServer({ port: 0, settlementDelaySeconds: 30 });
    receiver = await startWebhookReceiver({ answer: () => 200 });
    userDataDir = temporaryDirectory('console-chromium-');
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: chromiumArgs,
    });
    // The network is cut off: only the sandbox's own origin answers.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requested.push(url);
      if (new URL(url).origin === server.url) return route.continue();
      offOrigin.push(url);
      return route.abort('internetdisconnected');
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await server?.close();
  });

  it('shows the API reference offline: "Create a payment" with its documented badge, and inferred ones', async () => {
    const page = await openPage('/_console/reference');
    const operation = page.locator('[id="operation/createPayment"]');
    await expect
      .poll(() => operation.getByText('Create a payment').first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    const documented = operation.locator('.provenance-documented').first();
    expect(await documented.textContent()).toBe('documented · §4.1');
    expect(await documented.isVisible()).toBe(true);
    expect(await page.locator('.provenance-inferred').count()).toBeGreaterThan(10);
    await page.evaluate(`document.getElementById('operation/createPayment').scrollIntoView()`);
    await page.screenshot({ path: join(ARTIFACTS, 'console-reference-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect
      .poll(() => operation.getByText('Create a payment').first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    await page.evaluate(`document.getElementById('operation/createPayment').scrollIntoView()`);
    await page.screenshot({ path: join(ARTIFACTS, 'console-reference-dark.png') });
    const sandbox = await openPage('/_console/reference/sandbox');
    await expect
      .poll(() => sandbox.locator('[id="operation/getSandboxInspector"]').isVisible(), {
        timeout: 30_000,
      })
      .toBe(true);
    await page.close();
    await sandbox.close();
  }, 90_000);

  it('follows a key: a payment made through the API appears, and advancing the clock from the page settles a pending one and shows its delivery', async () => {
    const page = await openPage('/');
    // Keyboard only: Tab to the key field, type, Enter.
    for (let tab = 0; tab < 12; tab++) {
      if ((await page.evaluate('document.activeElement && document.activeElement.id')) === 'key')
        break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate('document.activeElement.id')).toBe('key');
    await page.keyboard.type(API_KEY);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#inspector-status').textContent()).toContain('Live');

    const first = await api('/v1/payments', {
      method: 'POST',
      body: {
        amount: 1500,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      },
    });
    expect(first.status).toBe(201);
    const firstCard = page.locator(`[data-payment-id="${first.body.id}"]`);
    await expect.poll(() => firstCard.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await firstCard.textContent()).toContain('SUCCEEDED');
    // The amount in major units with its currency (KZT has two decimals), the minor units beside it.
    expect(await firstCard.textContent()).toContain('15.00 KZT');
    expect(await firstCard.textContent()).toContain('1500 minor units');

    const endpoint = await api('/v1/webhook_endpoints', {
      method: 'POST',
      body: { url: receiver.url },
    });
    expect(endpoint.status).toBe(201);
    receiver.secret = endpoint.body.secret;
    const pending = await api('/v1/payments', {
      method: 'POST',
      body: {
        amount: 2500,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_pending' },
      },
    });
    const card = page.locator(`[data-payment-id="${pending.body.id}"]`);
    await expect
      .poll(async () => (await card.textContent()) ?? '', { timeout: 10_000 })
      .toContain('PENDING');

    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await expect
      .poll(async () => (await card.textContent()) ?? '', { timeout: 10_000 })
      .toContain('settled');
    expect(await card.locator('.card-head').textContent()).toContain('SUCCEEDED');
    const succeeded = page
      .locator('[data-event-type="payment.succeeded"]')
      .filter({ hasText: pending.body.id });
    await expect
      .poll(async () => (await succeeded.textContent()) ?? '', { timeout: 10_000 })
      .toMatch(/#1 .*→ 200/);
    expect(receiver.received.some((delivery) => delivery.event.type === 'payment.succeeded')).toBe(
      true,
    );
    // The requests table shows what the test's code sent.
    expect(await page.locator('#requests-title').textContent()).toMatch(/Requests \(\d+\)/);
    expect(await page.locator('#inspector-panels').textContent()).toContain('POST');

    // The key: in the tab's session storage, never in a URL.
    expect(await page.evaluate(`sessionStorage.getItem('payment-service-console:key')`)).toBe(
      API_KEY,
    );
    expect(requested.filter((url) => url.includes(API_KEY))).toEqual([]);

    await page.screenshot({ path: join(ARTIFACTS, 'console-inspector-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ARTIFACTS, 'console-inspector-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // Readable on a narrow window: nothing wider than the viewport.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(
      await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
    ).toBe(true);
    await page.screenshot({
      path: join(ARTIFACTS, 'console-inspector-narrow.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Accessibility: axe-core finds no serious or critical violation.
    const axeSource = await readFile(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    );
    await page.evaluate(axeSource);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = (await page.evaluate(`axe.run(document).then((r) => r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))`)) as string[];
      expect(violations, scheme).toEqual([]);
    }
    await page.close();
  }, 90_000);

  it('shows only the key it was given', async () => {
    const other = await api('/v1/payments', {
      key: 'sk_test_console_browser_other',
      method: 'POST',
      body: {
        amount: 900,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      },
    });
    const page = await openPage('/');
    // A new tab starts without the key: session storage is per tab.
    expect(await page.evaluate(`sessionStorage.length`)).toBe(0);
    await page.fill('#key', API_KEY);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await expect.poll(() => page.locator('#inspector-status').textContent()).toContain('Live');
    await expect.poll(() => page.locator('[data-payment-id]').count()).toBeGreaterThan(0);
    expect(await page.locator(`[data-payment-id="${other.body.id}"]`).count()).toBe(0);
    await page.close();
  }, 60_000);

  it('made no request outside the sandbox and raised no script error', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(offOrigin).toEqual([]);
    expect(scriptErrors).toEqual([]);
  });
});
