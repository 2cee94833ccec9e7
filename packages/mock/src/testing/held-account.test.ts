// The testing entry's synchronous reads: snapshot() and clock.now() read the memory store at once, with no promise and no branch on how a store answered.
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../app/runtime.js';
import { readAccountData } from '../service/account-data.js';
import { heldAccountData, heldAccountNow } from './held-account.js';
import { createTestSandbox } from './sandbox.js';
import type { TestSandbox } from './types.js';

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

describe("the testing entry's synchronous reads", () => {
  it('snapshot() and clock.now() answer at once what the requests before them changed', async () => {
    const sandbox = createTestSandbox({ seed: 'held-account' });
    sandboxes.push(sandbox);
    const before = sandbox.snapshot();
    expect(before).not.toBeInstanceOf(Promise);
    expect(before.payments).toEqual([]);
    const payment = await sandbox.client.payments.create({
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_pending' },
    });
    const start = sandbox.clock.now().getTime();
    await sandbox.controls.advanceClock(2);
    const after = sandbox.snapshot();
    expect(after.payments.map((stored) => stored.payment.id)).toEqual([payment.id]);
    expect(after.clock_offset_seconds).toBe(2);
    // The key's clock: the sandbox's own plus the offset the advance left, read at once.
    expect(sandbox.clock.now().getTime()).toBe(start + 2000);
  });

  it('reads what the seam reads, and creates nothing for a key that holds nothing', async () => {
    const runtime = createRuntime({ seed: 1 });
    runtime.close();
    const { memory, state } = runtime;
    if (memory === undefined) throw new Error('no memory store');
    const apiKey = 'sk_test_held_account_000001';
    const serverNow = state.clock.now();
    expect(heldAccountNow(memory, apiKey, serverNow)).toBe(serverNow);
    expect(heldAccountData(memory, apiKey, undefined)).toEqual(
      await readAccountData(state, apiKey),
    );
    expect(memory.holds(apiKey)).toBe(false);
    const account = await state.store.open(apiKey);
    await account.setOffset(60);
    expect(heldAccountNow(memory, apiKey, serverNow)).toBe(serverNow + 60_000);
    expect(heldAccountData(memory, apiKey, undefined).offsetSeconds).toBe(60);
  });
});
