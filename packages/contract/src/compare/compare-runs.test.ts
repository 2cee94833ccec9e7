// compareRuns on hand-made traces: each promise of the README's compare section (aspects, forms, events and their order, the four changes, one-sided scenarios, races) in isolation.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import type { ContractRun } from '../runner/run.js';
import type { TraceStep } from '../runner/scenario.js';
import { resolveElement } from '../spec/elements.js';
import { compareRuns, MAX_DIFFERENCES } from './compare.js';
import { formatComparison } from './format.js';

/** A run with these traces, and these checks failed (element and operation). */
function run(
  traces: Record<string, TraceStep[]>,
  failed: Array<Pick<CheckResult, 'id' | 'operation'> & { pointer: string; value?: string }> = [],
): ContractRun {
  const checks = failed.map(({ id, operation, pointer, value }) => ({
    id,
    operation,
    title: id,
    kind: 'scenario',
    outcome: 'failed',
    runs: 1,
    failures: 1,
    element: resolveElement({ pointer, ...(value ? { value } : {}) }),
  }));
  const summary = {
    checks: checks.length,
    passed: 0,
    failed: checks.length,
    skipped: 0,
    failedDocumented: 0,
    failedInferred: 0,
  };
  const report = {
    exitCode: 0,
    message: 'PASSED',
    checks,
    summary,
    target: { baseUrl: 'http://target.local' },
  } as unknown as ContractReport;
  return { report, traces: new Map(Object.entries(traces)) };
}

const payment = (fields: Record<string, unknown> = {}) => ({
  id: 'pay_1',
  object: 'payment',
  status: 'SUCCEEDED',
  amount: 100,
  currency: 'EUR',
  created_at: '2026-11-22T04:20:00Z',
  ...fields,
});

const create = (body: unknown, extra: Partial<TraceStep> = {}): TraceStep => ({
  label: 'POST createPayment',
  operation: 'createPayment',
  status: 201,
  body,
  headers: ['request-id'],
  ...extra,
});

describe('compareRuns', () => {
  it('compares ids by prefix and times by form: other ids and times of the same form are no difference', () => {
    const comparison = compareRuns(
      run({ s: [create(payment())] }),
      run({ s: [create(payment({ id: 'pay_2', created_at: '2030-01-01T00:00:09Z' }))] }),
      'any',
    );
    expect(comparison.differences).toEqual([]);
    expect(comparison.exitCode).toBe(0);
  });

  it('compares free texts by type, and a list’s first item by which fields it has', () => {
    const list = (items: unknown[], more: boolean): TraceStep => ({
      label: 'GET listPayments',
      operation: 'listPayments',
      status: 200,
      body: { object: 'list', data: items, has_more: more },
    });
    const alike = compareRuns(
      run({
        s: [
          create(payment({ failure_message: 'declined by the bank' })),
          list([payment({ amount: 1, status: 'FAILED' })], true),
        ],
      }),
      run({
        s: [
          create(payment({ failure_message: 'card declined' })),
          list([payment({ amount: 2 }), payment()], false),
        ],
      }),
      'any',
    );
    expect(alike.differences).toEqual([]);
    const missing = compareRuns(
      run({
        s: [
          list(
            [Object.fromEntries(Object.entries(payment()).filter(([key]) => key !== 'currency'))],
            false,
          ),
        ],
      }),
      run({ s: [list([payment()], false)] }),
      'any',
    );
    expect(missing.differences.map((difference) => [difference.aspect, difference.field])).toEqual([
      ['shape', 'data/0/currency'],
    ]);
  });

  it('reports another id prefix, another time form, another value, a missing field, another status and code, a missing header', () => {
    const comparison = compareRuns(
      run({
        s: [
          create(payment({ id: 'py_1', created_at: '2026-11-22 04:20:00', amount: 200 }), {
            status: 200,
            headers: [],
          }),
          {
            label: 'POST createPayment',
            operation: 'createPayment',
            status: 400,
            code: 'bad',
            body: {},
          },
        ],
      }),
      run({
        s: [
          create({ ...payment(), extra: 1 }),
          {
            label: 'POST createPayment',
            operation: 'createPayment',
            status: 400,
            code: 'invalid_request',
            body: {},
          },
        ],
      }),
      'any',
    );
    const got = comparison.differences.map((difference) => [
      difference.aspect,
      difference.field ?? '',
      difference.live,
      difference.against,
    ]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['status', '', '200', '201'],
        ['header', 'Request-Id', 'absent', 'sent'],
        ['value', 'id', 'py_…', 'pay_…'],
        ['value', 'created_at', '9-9-9 9:9:9', '9-9-9T9:9:9Z'],
        ['value', 'amount', '200', '100'],
        ['shape', 'extra', '(absent)', '1'],
        ['code', 'code', 'bad', 'invalid_request'],
      ]),
    );
    expect(comparison.exitCode).toBe(1);
  });

  it('compares the events received and their order', () => {
    const events = (body: string[]): TraceStep => ({
      label: 'events',
      operation: 'webhooks',
      body,
    });
    const comparison = compareRuns(
      run({ w: [events(['payment.succeeded', 'payment.refunded'])] }),
      run({ w: [events(['payment.refunded', 'payment.succeeded'])] }),
      'any',
    );
    expect(comparison.differences).toHaveLength(1);
    expect(comparison.differences[0]).toMatchObject({
      aspect: 'events',
      live: '["payment.succeeded","payment.refunded"]',
      against: '["payment.refunded","payment.succeeded"]',
    });
  });

  it('names each change: provider (documented, provider fails), spec (inferred, provider fails), mock (mock fails, or both hold), nothing (a sandbox difference)', () => {
    const refund = (status: string): TraceStep => ({
      label: 'POST createRefund',
      operation: 'createRefund',
      status: 201,
      body: {
        id: 'ref_1',
        object: 'refund',
        payment_id: 'pay_1',
        amount: 1,
        currency: 'EUR',
        status,
        created_at: '2026-11-22T04:20:00Z',
      },
    });
    const changes = (
      live: ContractRun,
      against: ContractRun,
    ): Array<[string, string, string | undefined]> =>
      compareRuns(live, against, 'any').differences.map((difference) => [
        difference.field ?? difference.aspect,
        difference.change,
        difference.element.provenance.kind,
      ]);
    // The provider answers FAILED where the mock says SUCCEEDED, and fails the documented check.
    expect(
      changes(
        run({ s: [create(payment({ status: 'FAILED' }))] }, [
          {
            id: 'createPayment.captured-is-succeeded',
            operation: 'createPayment',
            pointer: '/components/schemas/PaymentStatus',
            value: 'SUCCEEDED',
          },
        ]),
        run({ s: [create(payment())] }),
      ),
    ).toEqual([['status', 'provider', 'documented']]);
    // The provider's amount breaks an inferred check.
    expect(
      changes(
        run({ s: [create(payment({ amount: 5 }))] }, [
          {
            id: 'schema.Payment.amount',
            operation: 'createPayment',
            pointer: '/components/schemas/Payment/properties/amount',
          },
        ]),
        run({ s: [create(payment())] }),
      ),
    ).toEqual([['amount', 'spec', 'inferred']]);
    // The mock breaks the spec where the provider holds it.
    expect(
      changes(
        run({ s: [create(payment())] }),
        run({ s: [create(payment({ amount: 5 }))] }, [
          {
            id: 'schema.Payment.amount',
            operation: 'createPayment',
            pointer: '/components/schemas/Payment/properties/amount',
          },
        ]),
      ),
    ).toEqual([['amount', 'mock', 'inferred']]);
    // Both hold the spec: the mock follows the provider.
    expect(
      changes(run({ s: [create(payment({ amount: 7 }))] }, []), run({ s: [create(payment())] })),
    ).toEqual([['amount', 'mock', 'inferred']]);
    // The spec says a sandbox refunds synchronously: a refund's status is a sandbox's difference.
    expect(changes(run({ r: [refund('PENDING')] }), run({ r: [refund('SUCCEEDED')] }))).toEqual([
      ['status', 'nothing', 'inferred'],
    ]);
  });

  it('lists the scenarios run on one side only apart, and counts them in no difference', () => {
    const comparison = compareRuns(
      run({ a: [create(payment())] }),
      run({ a: [create(payment())], 'sandbox-controls': [create(payment())] }),
      'any',
    );
    expect(comparison).toMatchObject({
      compared: ['a'],
      oneSided: ['sandbox-controls'],
      differences: [],
      exitCode: 0,
    });
    expect(formatComparison(comparison, 'text')).toContain(
      'Run on one side only (skipped on the other): sandbox-controls',
    );
  });

  it('compares a batch sent at once by its winner: who replays and who finds the key in use (409) is the race’s', () => {
    const replay = create(payment(), { headers: ['request-id', 'idempotent-replayed'], batch: 2 });
    const inUse: TraceStep = {
      label: 'POST createPayment',
      operation: 'createPayment',
      status: 409,
      code: 'idempotency_key_in_use',
      body: { code: 'idempotency_key_in_use' },
      headers: ['request-id'],
      batch: 2,
    };
    const winner = create(payment(), { batch: 2 });
    const alike = compareRuns(
      run({ i: [create(payment(), { batch: 1 }), replay, replay, winner, replay] }),
      run({ i: [create(payment(), { batch: 1 }), inUse, winner, inUse, inUse] }),
      'any',
    );
    expect(alike.differences).toEqual([]);
    // A winner that differs is still a difference.
    const differs = compareRuns(
      run({ i: [inUse, create(payment({ amount: 1 }), { batch: 2 }), inUse] }),
      run({ i: [inUse, winner, inUse] }),
      'any',
    );
    expect(differs.differences.map((difference) => difference.field)).toEqual(['amount']);
  });

  it('lists a scenario that stops right after a difference with it, and one that parts later on its own', () => {
    const retrieve: TraceStep = {
      label: 'GET retrievePayment',
      operation: 'retrievePayment',
      status: 200,
      body: payment(),
      headers: ['request-id'],
    };
    const stopped = compareRuns(
      run({ s: [create(payment({ amount: 1 }))] }),
      run({ s: [create(payment()), retrieve] }),
      'any',
    );
    expect(stopped.differences).toHaveLength(1);
    expect(stopped.differences[0]?.steps.map((step) => step.field)).toEqual([
      'amount',
      '(the scenario went another way)',
    ]);
    const later = compareRuns(
      run({ s: [create(payment({ amount: 1 })), retrieve] }),
      run({ s: [create(payment()), retrieve, retrieve] }),
      'any',
    );
    expect(later.differences.map((difference) => difference.aspect)).toEqual(['value', 'path']);
  });

  it('lists one entry per element, with every step it showed in', () => {
    const steps = Array.from({ length: 24 }, () => create(payment({ currency: 'USD' })));
    const comparison = compareRuns(
      run({ s: steps }),
      run({ s: Array.from({ length: 24 }, () => create(payment())) }),
      'any',
    );
    expect(comparison.differences).toHaveLength(1);
    expect(comparison.differences[0]?.occurrences).toBe(24);
    const text = formatComparison(comparison, 'text');
    expect(text.split('\n').filter((line) => line.includes('≠'))).toHaveLength(1);
    expect(text).toContain('in 24 steps: s #1 POST createPayment, s #2 POST createPayment');
    expect(text).toContain('and 16 more');
  });
});

describe('compareRuns on a hostile target', () => {
  it('keeps every report bounded: 300 distinct 100,000-character codes make 100 entries, the rest counted, Markdown under 1 MiB', () => {
    // Where the mock gives no code, the provider's own codes name the entries: 300 distinct ones.
    const problem = (code?: string): TraceStep => ({
      label: 'POST createPayment',
      operation: 'createPayment',
      status: 400,
      ...(code === undefined ? {} : { code }),
      body: code === undefined ? { detail: 'bad' } : { detail: 'bad', code },
    });
    const codes = Array.from(
      { length: 300 },
      (_, index) => `${index}\n::error::${'x'.repeat(100_000)}`,
    );
    const comparison = compareRuns(
      run({ s: codes.map(problem) }),
      run({ s: codes.map(() => problem()) }),
      'documented',
    );
    expect(comparison.differences).toHaveLength(MAX_DIFFERENCES);
    expect(comparison.leftOut).toBe(300 - MAX_DIFFERENCES);
    expect(comparison.message).toContain('300 differences');
    const markdown = formatComparison(comparison, 'markdown');
    expect(markdown.length).toBeLessThan(1024 * 1024);
    expect(markdown).toContain(`${300 - MAX_DIFFERENCES} more difference(s)`);
    expect(formatComparison(comparison, 'json').length).toBeLessThan(4 * 1024 * 1024);
    for (const line of formatComparison(comparison, 'text').split('\n'))
      expect(line).not.toMatch(/^\s*::/);
  });
});
