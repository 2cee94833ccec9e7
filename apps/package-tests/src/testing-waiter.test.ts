// The testing kit's `webhooks.next()` waiter in a merchant's vitest project over the packed tarballs: made before the action or after it, a 500 then the retry's 204, and a run with no unhandled rejection.
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot, toolPath } from './pack.js';
import { sharedProject } from './shared-project.js';

const run = promisify(execFile);

/** The merchant's test file: the waiter as a test author writes it. */
const WAITER_TESTS = `
import { webhooks } from '@payment-service/sdk';
import { createTestSandbox, type TestSandbox } from '@payment-service/mock/testing';
import { afterEach, expect, test } from 'vitest';

let sandbox: TestSandbox;
afterEach(() => sandbox.close());

/** The shop's webhook route: verifies each delivery, answers the next of \`answers\` (then 204). */
async function shopRoute(answers: number[] = []) {
  const handled: string[] = [];
  let secret = '';
  ({ secret } = await sandbox.webhooks.deliverTo(
    async (request) => {
      const event = await webhooks.verify(await request.text(), request.headers, secret);
      const status = answers.shift() ?? 204;
      handled.push(\`\${event.type} \${status}\`);
      return new Response(null, { status });
    },
    { url: 'http://shop.test/webhooks', events: ['payment.succeeded'] },
  ));
  return handled;
}

const pay = (token: string) =>
  sandbox.client.payments.create({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token } });

test('a waiter made before the request resolves once the shop handled the webhook', async () => {
  sandbox = createTestSandbox({ seed: 'before-the-request' });
  const handled = await shopRoute();
  const succeeded = sandbox.webhooks.next({ type: 'payment.succeeded' });
  const payment = await pay('tok_test_success');
  expect((await succeeded).data.object.id).toBe(payment.id);
  expect(handled).toEqual(['payment.succeeded 204']);
  // Never awaited: it gives up when the sandbox closes, and must not fail the run.
  void sandbox.webhooks.next({ type: 'payment.succeeded' });
});

test('a waiter made before clock.advance() and awaited after it', async () => {
  sandbox = createTestSandbox({ seed: 'before-the-advance' });
  await shopRoute();
  const payment = await pay('tok_test_pending');
  const succeeded = sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id });
  await sandbox.clock.advance({ seconds: 5 });
  expect((await succeeded).data.object.status).toBe('SUCCEEDED');
});

test("a 500 then the retry's 204: the waiter resolves after the 204, and the event comes once", async () => {
  sandbox = createTestSandbox({ seed: 'a-500-then-a-204' });
  const handled = await shopRoute([500]);
  const accepted = sandbox.webhooks.next({ type: 'payment.succeeded' });
  const attempted = sandbox.webhooks.next({ type: 'payment.succeeded', answer: 'any' });
  const payment = await pay('tok_test_success');
  expect((await attempted).data.object.id).toBe(payment.id);
  expect(handled).toEqual(['payment.succeeded 500']);
  await sandbox.clock.advance({ seconds: 10 });
  expect((await accepted).data.object.id).toBe(payment.id);
  expect(handled).toEqual(['payment.succeeded 500', 'payment.succeeded 204']);
  await expect(sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 0 })).rejects.toThrow(
    'no such event was delivered and accepted (2xx) by a handler',
  );
});

test('a waiter whose within passed before it was awaited rejects when awaited', async () => {
  sandbox = createTestSandbox({ seed: 'within' });
  await shopRoute();
  await pay('tok_test_pending');
  const tooSoon = sandbox.webhooks.next({ type: 'payment.succeeded', within: { seconds: 1 } });
  await sandbox.clock.advance({ seconds: 5 });
  await expect(tooSoon).rejects.toThrow('past its within (2026-01-01T00:00:01.000Z)');
});

test('a waiter awaited before the clock moves says what is due on the sandbox clock', async () => {
  sandbox = createTestSandbox({ seed: 'what-is-due' });
  await shopRoute();
  const payment = await pay('tok_test_pending');
  await expect(sandbox.webhooks.next({ type: 'payment.succeeded', timeout: 0 })).rejects.toThrow(
    \`\${payment.id} settles at 2026-01-01T00:00:05.000Z: advance the clock (sandbox.clock.advance)\`,
  );
});
`;

/** A passing test that leaves a rejection nobody handles: vitest must fail such a run. */
const UNHANDLED_CONTROL = `
import { expect, test } from 'vitest';

test('passes, leaving a rejection nobody handles', async () => {
  void Promise.reject(new Error('nobody awaited this'));
  await new Promise((resolve) => setImmediate(resolve));
  expect(true).toBe(true);
});
`;

/** The environment of a command run as a merchant would, without this runner's own variables. */
function merchantEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST'),
  );
  return { ...env, PATH: toolPath(), NO_COLOR: '1', CI: 'true' };
}

describe("the testing kit's webhooks.next() in a merchant's vitest project, from the tarballs", () => {
  let project: string;

  beforeAll(async () => {
    // The shared install of the tarballs, with vitest beside it as the merchant's dev dependency
    // (the version this repository tests with, linked, not installed a second time).
    const shared = await sharedProject('kit', inject('tarballs'), inject('registry'));
    project = join(shared, 'vitest-waiter');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await symlink(
      join(shared, 'node_modules/@payment-service'),
      join(project, 'node_modules/@payment-service'),
      'dir',
    );
    await symlink(
      join(repoRoot, 'apps/package-tests/node_modules/vitest'),
      join(project, 'node_modules/vitest'),
      'dir',
    );
    const manifest = { name: 'merchant-vitest-waiter', private: true, type: 'module' };
    await writeFile(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    await writeFile(join(project, 'waiter.test.ts'), WAITER_TESTS);
    await writeFile(join(project, 'unhandled-control.test.ts'), UNHANDLED_CONTROL);
  });

  /** Runs the merchant's `vitest run <filter>`: its exit code and output. */
  async function vitest(filter: string): Promise<{ code: number; output: string }> {
    const args = ['node_modules/vitest/vitest.mjs', 'run', filter, '--maxWorkers=1'];
    try {
      const { stdout, stderr } = await run(process.execPath, args, {
        cwd: project,
        env: merchantEnv(),
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: 0, output: `${stdout}${stderr}` };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  it('passes every waiter test, and the run exits 0 with no unhandled rejection', async () => {
    const { code, output } = await vitest('waiter.test');
    expect(output).toMatch(/Tests\s+5 passed \(5\)/);
    expect(output).not.toMatch(/Unhandled|Errors\s+\d/);
    expect(code, output).toBe(0);
  });

  it('fails a run on an unhandled rejection although its tests pass (what the run above rules out)', async () => {
    const { code, output } = await vitest('unhandled-control.test');
    expect(output).toMatch(/Tests\s+1 passed \(1\)/);
    expect(output).toContain('Unhandled Rejection');
    expect(code).toBe(1);
  });
});
