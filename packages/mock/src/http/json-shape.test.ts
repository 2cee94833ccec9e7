import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from './json-shape.js';

describe('jsonShapeProblem', () => {
  it('lets every body an operation takes through', () => {
    for (const body of [
      {
        amount: 1000,
        currency: 'KZT',
        payment_method: { type: 'token', token: 'tok_test_success' },
      },
      {
        url: 'https://example.com/hook',
        events: Array.from({ length: 32 }, () => 'payment.succeeded'),
      },
      {
        latency_ms: 5,
        fail_next: { count: 1, status: 503, retry_after: 1 },
        drop_after_commit: { count: 1 },
      },
      {},
    ]) {
      expect(jsonShapeProblem(JSON.stringify(body))).toBeUndefined();
    }
  });

  it('refuses too many members or items, at any depth', () => {
    const members = Object.fromEntries(
      Array.from({ length: MAX_JSON_VALUES + 1 }, (_, i) => [`u${i}`, i]),
    );
    expect(jsonShapeProblem(JSON.stringify(members))).toMatch(/at most 1024 JSON values/);
    expect(
      jsonShapeProblem(JSON.stringify({ a: { b: Array(MAX_JSON_VALUES + 1).fill(0) } })),
    ).toBeDefined();
  });

  it('refuses nesting deeper than the limit', () => {
    expect(
      jsonShapeProblem(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`),
    ).toBeUndefined();
    expect(
      jsonShapeProblem(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`),
    ).toMatch(/nested at most 32 deep/);
  });

  it('does not count separators inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ description: `"${',:{['.repeat(10_000)}\\"` });
    expect(jsonShapeProblem(text)).toBeUndefined();
  });
});
