// A vitest fixture (`test.extend`) that gives each test its own sandbox, seeded by the test's name, and closes it after.
import { createTestSandbox } from './sandbox.js';
import type { TestSandbox, TestSandboxOptions } from './types.js';

/** What vitest hands a fixture: the test's context (its `task` names the test). */
interface FixtureContext {
  task: { name: string };
}

/**
 * The fixtures for vitest's `test.extend`: `sandbox`, a fresh `createTestSandbox(options)` per
 * test, seeded by the test's name unless `options.seed` is given (so a test gets the same ids on
 * every run), closed when the test ends. Imports nothing from vitest.
 *
 * @example
 * import { test as base, expect } from 'vitest';
 * import { testSandboxFixture, type TestSandbox } from '@payment-service/mock/testing';
 *
 * const test = base.extend<{ sandbox: TestSandbox }>(testSandboxFixture());
 * test('a pending payment succeeds', async ({ sandbox }) => {
 *   const payment = await sandbox.trigger('payment.pending');
 *   await sandbox.clock.advance(5_000);
 *   expect((await sandbox.client.payments.retrieve(payment.id)).status).toBe('SUCCEEDED');
 * });
 */
export function testSandboxFixture(options: TestSandboxOptions = {}): {
  sandbox: (context: FixtureContext, use: (sandbox: TestSandbox) => Promise<void>) => Promise<void>;
} {
  return {
    // vitest reads the fixture's first parameter to learn what it needs: keep it destructured.
    sandbox: async ({ task }, use) => {
      const sandbox = createTestSandbox({ seed: task.name, ...options });
      try {
        await use(sandbox);
      } finally {
        await sandbox.close();
      }
    },
  };
}
