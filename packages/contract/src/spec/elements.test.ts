// Tests of provenance resolution (own, through a $ref, inherited, per enum value, per status code) and of element lines.
import { describe, expect, it } from 'vitest';
import {
  describeProvenance,
  locateElement,
  resolveElement,
  resolveProvenance,
} from './elements.js';
import { specDocuments } from './spec-index.js';

const openapi = specDocuments.openapi;

describe('resolveProvenance', () => {
  it('gives SUCCEEDED its documented provenance and its siblings the enum’s inferred one', () => {
    expect(
      resolveProvenance(openapi, {
        pointer: '/components/schemas/PaymentStatus',
        value: 'SUCCEEDED',
      }),
    ).toEqual({ kind: 'documented', section: '3' });
    expect(
      resolveProvenance(openapi, { pointer: '/components/schemas/PaymentStatus', value: 'PENDING' })
        .kind,
    ).toBe('inferred');
    expect(
      resolveProvenance(openapi, {
        pointer: '/components/schemas/PaymentStatus',
        value: 'COMPLETED',
      }).kind,
    ).toBe('inferred');
  });

  it('reads a property’s own provenance, follows a $ref, or inherits from the enclosing schema', () => {
    expect(
      resolveProvenance(openapi, { pointer: '/components/schemas/Payment/properties/created_at' }),
    ).toEqual({ kind: 'documented', section: '2.1' });
    expect(
      resolveProvenance(openapi, { pointer: '/components/schemas/Payment/properties/object' }),
    ).toEqual({ kind: 'documented', section: '2.1' });
    expect(
      resolveProvenance(openapi, { pointer: '/components/schemas/Payment/properties/capture' })
        .kind,
    ).toBe('inferred');
    expect(
      resolveProvenance(openapi, { pointer: '/components/schemas/Refund/properties/created_at' })
        .kind,
    ).toBe('inferred');
  });

  it('reads a response’s status-code provenance apart from its body’s', () => {
    const response = { pointer: '/paths/~1v1~1payments/post/responses/201' };
    expect(resolveProvenance(openapi, response)).toEqual({ kind: 'documented', section: '4.1' });
    expect(resolveProvenance(openapi, { ...response, facet: 'status' }).kind).toBe('inferred');
  });

  it('says so when an element has no provenance at all', () => {
    expect(resolveProvenance({}, { pointer: '/nowhere' })).toEqual({
      kind: 'inferred',
      note: 'no x-provenance at /nowhere',
    });
  });
});

describe('resolveElement', () => {
  it('gives an element of the provider spec its file and line', () => {
    const element = resolveElement({
      pointer: '/components/schemas/PaymentStatus',
      value: 'SUCCEEDED',
    });
    expect(element).toMatchObject({
      spec: 'openapi',
      file: 'spec/openapi.yaml',
      value: 'SUCCEEDED',
    });
    expect(element.line).toBeGreaterThan(1);
    expect(describeProvenance(element.provenance)).toBe('documented (provider document §3)');
    expect(
      resolveElement({ spec: 'sandbox', pointer: '/components/schemas/Clock' }).line,
    ).toBeUndefined();
  });
});

describe('locateElement', () => {
  it('walks items, $refs and properties to the governing schema', () => {
    expect(
      locateElement(openapi, '/components/schemas/PaymentList', ['data', '3', 'created_at']),
    ).toEqual({
      pointer: '/components/schemas/Payment/properties/created_at',
      name: 'Payment.created_at',
    });
    expect(locateElement(openapi, '/components/schemas/Payment', ['no_such_field']).name).toBe(
      'Payment.no_such_field',
    );
  });
});
