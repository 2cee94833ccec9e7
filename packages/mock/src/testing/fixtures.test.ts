import { afterEach, describe, expect, it } from 'vitest';
import { SandboxFixtureError } from './fixtures.js';
import { createTestSandbox } from './sandbox.js';
import type { SandboxSnapshot, TestSandbox } from './types.js';

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});
function sandboxFor(seed = 'fixtures'): TestSandbox {
  const sandbox = createTestSandbox({ seed });
  sandboxes.push(sandbox);
  return sandbox;
}

async function seedError(sandbox: TestSandbox, payments: unknown): Promise<SandboxFixtureError> {
  const error = await sandbox.seed({ payments: payments as [] }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SandboxFixtureError);
  return error as SandboxFixtureError;
}

describe('sandbox.seed', () => {
  it('loads payments in every status with defaults that follow the status', async () => {
    const sandbox = sandboxFor();
    const seeded = await sandbox.seed({
      payments: [
        { status: 'SUCCEEDED', amount: 1000, currency: 'KZT', description: 'Order 1' },
        { status: 'REFUNDED', amount: 500, currency: 'RUB' },
        { status: 'FAILED', amount: 700, currency: 'KZT' },
        { status: 'AUTHORIZED', amount: 300, currency: 'KZT', id: 'pay_fixture_authorized' },
        { status: 'CANCELED', amount: 200, currency: 'KZT' },
        { status: 'PENDING', amount: 100, currency: 'KZT', token: 'tok_test_pending_declined' },
      ],
    });
    expect(seeded.map((payment) => payment.status)).toEqual([
      'SUCCEEDED',
      'REFUNDED',
      'FAILED',
      'AUTHORIZED',
      'CANCELED',
      'PENDING',
    ]);
    expect(seeded[0]).toMatchObject({ amount_captured: 1000, amount_refunded: 0, capture: true });
    expect(seeded[1]).toMatchObject({ amount_captured: 500, amount_refunded: 500 });
    expect(seeded[2]).toMatchObject({ failure_code: 'card_declined', amount_captured: 0 });
    expect(seeded[3]).toMatchObject({ id: 'pay_fixture_authorized', capture: false });
    expect(seeded[5]?.created_at).toBe('2026-01-01T00:00:00Z');

    // Seeded payments are the key's own: the API serves and changes them.
    const captured = await sandbox.client.payments.capture('pay_fixture_authorized');
    expect(captured.status).toBe('SUCCEEDED');
    const list = await sandbox.client.payments.list({ limit: 10 });
    expect(list.data).toHaveLength(6);
    // A PENDING fixture settles as its token says, on the clock.
    await sandbox.clock.advance(5_000);
    const settled = await sandbox.client.payments.retrieve(seeded[5]?.id as string);
    expect(settled).toMatchObject({ status: 'FAILED', failure_code: 'card_declined' });
  });

  it('sends no event for seeded payments: they are the past', async () => {
    const sandbox = sandboxFor();
    await sandbox.webhooks.deliverTo(() => new Response(null, { status: 204 }));
    await sandbox.seed({ payments: [{ status: 'SUCCEEDED', amount: 1, currency: 'KZT' }] });
    expect(await sandbox.webhooks.deliveries()).toEqual([]);
  });

  it('names every problem of every fixture: wrong fields, types, statuses and lifecycles', async () => {
    const sandbox = sandboxFor();
    const error = await seedError(sandbox, [
      { status: 'SUCCEEDED', amount: 1000, currency: 'KZT', colour: 'red' },
      { status: 'PAID', amount: 1000, currency: 'KZT' },
      { status: 'SUCCEEDED', amount: -5, currency: 'kzt' },
      { status: 'REFUNDED', amount: 1000, currency: 'KZT', amount_refunded: 10 },
      { status: 'FAILED', amount: 1000, currency: 'KZT', failure_code: null },
      { status: 'PENDING', amount: 1000, currency: 'KZT', token: 'tok_test_success' },
      { status: 'SUCCEEDED', amount: 1000, currency: 'KZT', token: 'tok_live_real' },
      'a payment',
    ]);
    expect(error.message).toMatch(/^sandbox\.seed\(\): \d+ problems:\n- /);
    const messages = error.errors.map((problem) => problem.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^payments\[0\]\.colour is not a known field; a payment fixture accepts id, object, status, .*token$/,
        ),
        expect.stringMatching(/^payments\[1\]\.status must be one of .*SUCCEEDED/),
        expect.stringMatching(/^payments\[2\]\.amount must be an integer ≥ 1/),
        expect.stringMatching(/^payments\[2\]\.currency must /),
        'payments[3].amount_refunded must equal amount_captured (1000) for a REFUNDED payment',
        'payments[4].failure_code and failure_message must be set for a FAILED payment',
        expect.stringMatching(/^payments\[5\]\.token tok_test_success does not settle/),
        expect.stringMatching(
          /^payments\[6\]\.token must be a test token of this sandbox: tok_test_success/,
        ),
        "payments[7] must be an object such as { status: 'SUCCEEDED', amount: 1000, currency: 'KZT' }",
      ]),
    );
    expect(error.errors.map((problem) => problem.param)).toContain('payments[1].status');
    // Nothing was loaded: fixtures load all or nothing.
    expect((await sandbox.client.payments.list()).data).toEqual([]);
  });

  it('refuses a payments value that is not an array, and a duplicate id', async () => {
    const sandbox = sandboxFor();
    expect((await seedError(sandbox, { status: 'SUCCEEDED' })).message).toBe(
      'sandbox.seed(): 1 problem:\n- payments must be an array of payment fixtures',
    );
    await sandbox.seed({
      payments: [{ id: 'pay_one', status: 'SUCCEEDED', amount: 1, currency: 'KZT' }],
    });
    const duplicate = await seedError(sandbox, [
      { id: 'pay_one', status: 'SUCCEEDED', amount: 1, currency: 'KZT' },
    ]);
    expect(duplicate.errors[0]?.message).toBe(
      'payments[0].id pay_one is already a payment of this sandbox; ids must be unique',
    );
  });
});

describe('sandbox.snapshot and restore', () => {
  it('a sandbox of the same seed restored from a snapshot draws no id the snapshot holds', async () => {
    const create = {
      amount: 1000,
      currency: 'KZT',
      payment_method: { type: 'token', token: 'tok_test_success' },
    } as const;
    const first = sandboxFor('drawn-again');
    const made = [
      await first.client.payments.create(create),
      ...(await first.seed({ payments: [{ status: 'SUCCEEDED', amount: 10, currency: 'KZT' }] })),
      await first.client.payments.create(create),
    ];
    const snapshot = first.snapshot();
    const second = sandboxFor('drawn-again');
    await second.restore(snapshot);
    const third = sandboxFor('drawn-again');
    await third.restore(snapshot);
    // The same seed draws the snapshot's ids again, in the same order: each is drawn anew.
    const created = await second.client.payments.create(create);
    const seeded = await second.seed({
      payments: [{ status: 'SUCCEEDED', amount: 20, currency: 'KZT' }],
    });
    const fixture = await third.seed({
      payments: [{ status: 'SUCCEEDED', amount: 30, currency: 'KZT' }],
    });
    const ids = [...made, created, ...seeded].map((payment) => payment.id);
    expect(new Set(ids).size).toBe(ids.length);
    // A fixture's id too, when it is the first id drawn.
    expect(made.map((payment) => payment.id)).not.toContain(fixture[0]?.id);
    const listed = await second.client.payments.list({ limit: 10 });
    expect(listed.data.map((payment) => payment.id).sort()).toEqual([...ids].sort());
    for (const payment of made) {
      expect(await second.client.payments.retrieve(payment.id)).toEqual(payment);
    }
  });

  it('round-trips a key through JSON: payments, timelines, pending settlements, idempotency, faults, clock', async () => {
    const sandbox = sandboxFor('snapshots');
    const fixed = await sandbox.client.payments.create(
      {
        amount: 1000,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_pending' },
      },
      { idempotencyKey: 'order-1' },
    );
    await sandbox.trigger('payment.refunded');
    await sandbox.controls.setFaults({ latency_ms: 5 });
    const snapshot = JSON.parse(JSON.stringify(sandbox.snapshot())) as SandboxSnapshot;
    expect(snapshot).toMatchObject({ format: 'payment-service-mock.sandbox-snapshot', version: 2 });
    expect(JSON.stringify(snapshot)).not.toContain(sandbox.apiKey);

    await sandbox.clock.advance(10_000);
    await sandbox.controls.clearFaults();
    await sandbox.trigger('payment.succeeded');
    expect((await sandbox.client.payments.list()).data).toHaveLength(3);

    await sandbox.restore(snapshot);
    expect(sandbox.snapshot()).toEqual(snapshot);
    expect(sandbox.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const list = await sandbox.client.payments.list();
    expect(list.data.map((payment) => payment.status)).toEqual(['REFUNDED', 'PENDING']);
    expect(await sandbox.controls.getFaults()).toEqual({ latency_ms: 5 });
    const replayed = await sandbox.fetch('/v1/payments', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'order-1',
      },
      body: JSON.stringify({
        amount: 1000,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_pending' },
      }),
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await replayed.json()).id).toBe(fixed.id);
    // The pending payment still settles on time after the restore.
    await sandbox.clock.advance(5_000);
    expect((await sandbox.client.payments.retrieve(fixed.id)).status).toBe('SUCCEEDED');
  });

  it('keeps the deliverTo endpoints across reset, and a snapshot brings back those it holds', async () => {
    const sandbox = sandboxFor();
    const received: string[] = [];
    await sandbox.webhooks.deliverTo(async (request) => {
      received.push(JSON.parse(await request.text()).type);
      return new Response(null, { status: 204 });
    });
    const empty = sandbox.snapshot();
    await sandbox.trigger('payment.failed');
    await sandbox.restore(empty);
    await sandbox.trigger('payment.succeeded');
    await sandbox.reset();
    await sandbox.trigger('payment.authorized');
    expect(received).toEqual(['payment.failed', 'payment.succeeded', 'payment.authorized']);
    await expect(sandbox.webhooks.next({ type: 'payment.failed', timeout: 0 })).rejects.toThrow(
      'no such event was delivered',
    );
  });

  it('refuses a snapshot of another format or version, or with broken payments', async () => {
    const sandbox = sandboxFor();
    const restoreError = async (snapshot: unknown) => {
      const error = await sandbox
        .restore(snapshot as SandboxSnapshot)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxFixtureError);
      return (error as SandboxFixtureError).message;
    };
    expect(await restoreError('{}')).toBe(
      'sandbox.restore(): 1 problem:\n- the snapshot must be an object made by sandbox.snapshot()',
    );
    const good = sandbox.snapshot();
    expect(await restoreError({ ...good, version: 3 })).toBe(
      'sandbox.restore(): 1 problem:\n- version 3 is not supported: this @payment-service/mock reads snapshots of versions 1 and 2',
    );
    expect(await restoreError({ ...good, format: 'something' })).toContain(
      "format must be 'payment-service-mock.sandbox-snapshot'",
    );
    await sandbox.trigger('payment.succeeded');
    const taken = sandbox.snapshot();
    const broken = structuredClone(taken);
    (broken.payments[0] as { payment: { amount: unknown } }).payment.amount = 'lots';
    (broken.payments[0] as { token: string }).token = 'tok_unknown';
    broken.clock = 'yesterday';
    const message = await restoreError(broken);
    expect(message).toContain(
      '- clock must be a UTC time such as 2026-01-01T00:00:00.000Z, from year 0000 to 9999; got "yesterday"',
    );
    expect(message).toContain('- payments[0].payment.amount must be an integer');
    expect(message).toContain(
      '- payments[0].token must be a test token of this sandbox; got "tok_unknown"',
    );
    // A refused restore changes nothing.
    expect(sandbox.snapshot()).toEqual(taken);
  });
});
