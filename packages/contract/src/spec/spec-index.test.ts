// Unit tests of the operation index: path templates, methods and declared status keys.
import { describe, expect, it } from 'vitest';
import { declaredStatusKey, findOperation, indexOperations, specDocuments } from './spec-index.js';

const operations = indexOperations(specDocuments);

describe('spec index', () => {
  it('matches requests to the operations of both specs', () => {
    expect(findOperation(operations, 'post', '/v1/payments')?.operationId).toBe('createPayment');
    expect(findOperation(operations, 'GET', '/v1/payments/pay_123')?.operationId).toBe(
      'retrievePayment',
    );
    expect(findOperation(operations, 'POST', '/v1/payments/pay_123/refunds')?.operationId).toBe(
      'createRefund',
    );
    expect(findOperation(operations, 'PUT', '/_sandbox/faults')?.spec).toBe('sandbox');
  });

  it('finds nothing for undeclared methods and paths', () => {
    expect(findOperation(operations, 'DELETE', '/v1/payments')).toBeUndefined();
    expect(findOperation(operations, 'GET', '/v1/payments/pay_1/extra/deep')).toBeUndefined();
    expect(findOperation(operations, 'GET', '/v1/payments/')).toBeUndefined();
  });

  it('resolves a status to its exact code, then its range, then default', () => {
    expect(declaredStatusKey(['2XX', '400', '5XX'], 201)).toBe('2XX');
    expect(declaredStatusKey(['2XX', '400', '5XX'], 400)).toBe('400');
    expect(declaredStatusKey(['2XX', '400', '5XX'], 503)).toBe('5XX');
    expect(declaredStatusKey(['2XX', 'default'], 418)).toBe('default');
    expect(declaredStatusKey(['2XX'], 418)).toBeUndefined();
  });
});
