// flattenBody and formOf: any JSON within bounds and without recursion; what the sandbox moves compared by the form the spec gives it.
import { describe, expect, it } from 'vitest';
import { flattenBody, formOf, MAX_DEPTH, MAX_LEAVES, schemaAt } from './forms.js';

describe('flattenBody', () => {
  it('reads 20,000 nested arrays and 20,000 nested objects as one marker leaf, without a stack overflow', () => {
    const arrays = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    const objects = JSON.parse(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
    for (const body of [arrays, objects]) {
      const leaves = flattenBody(body);
      expect(leaves).toHaveLength(1);
      expect(leaves[0]?.marker).toBe(`(nested deeper than ${MAX_DEPTH} levels)`);
      expect(leaves[0]?.path.length).toBe(MAX_DEPTH + 1);
    }
  });

  it(`reads at most ${MAX_LEAVES} leaves, and says how many it left out`, () => {
    const wide = Object.fromEntries(
      Array.from({ length: 50_000 }, (_, index) => [`f${index}`, index]),
    );
    const leaves = flattenBody(wide);
    expect(leaves).toHaveLength(MAX_LEAVES + 1);
    expect(leaves.at(-1)?.marker).toBe(`(${50_000 - MAX_LEAVES} more fields not compared)`);
  });

  it('keeps the order of fields and reads a list by its first item', () => {
    expect(flattenBody({ b: 1, a: [{ c: 2 }, { c: 3 }], e: [], d: {} })).toEqual([
      { path: ['b'], value: 1 },
      { path: ['a', '0', 'c'], value: 2 },
      { path: ['e', '0'], value: [], marker: '(no items)' },
      { path: ['d'], value: {}, marker: '{}' },
    ]);
  });
});

describe('formOf', () => {
  const at = (pointer: string, spec: 'openapi' | 'sandbox' = 'openapi') => schemaAt(spec, pointer);

  it('compares ids by the prefix the spec’s pattern names', () => {
    expect(formOf('id', 'pay_abc', at('/components/schemas/Payment/properties/id')).form).toBe(
      'pay_…',
    );
    expect(formOf('id', 'xyz', at('/components/schemas/Payment/properties/id')).form).toBe(
      '(no prefix)…',
    );
  });

  it('compares times (format date-time, across documents) by their digit pattern, the sandbox clock’s reading included', () => {
    const now = at('/components/schemas/Clock/properties/now', 'sandbox');
    expect(now?.format).toBe('date-time');
    expect(formOf('now', '2026-11-26T10:24:31Z', now)).toEqual({
      form: '9-9-9T9:9:9Z',
      by: 'form',
    });
    expect(formOf('created_at', '2026-11-26T10:24:31.5Z', undefined).form).toBe('9-9-9T9:9:9.9Z');
  });

  it('compares enum values, currencies and amounts by value', () => {
    expect(
      formOf('status', 'SUCCEEDED', at('/components/schemas/Payment/properties/status')),
    ).toEqual({
      form: '"SUCCEEDED"',
      by: 'value',
    });
    expect(
      formOf('currency', 'EUR', at('/components/schemas/Payment/properties/currency')).form,
    ).toBe('"EUR"');
    expect(formOf('amount', 100, undefined).form).toBe('100');
  });

  it('compares has_more by type: it depends on the key’s history', () => {
    expect(formOf('has_more', true, undefined).form).toBe(
      formOf('has_more', false, undefined).form,
    );
  });
});
