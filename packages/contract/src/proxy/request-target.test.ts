// A path that climbs above its root is seen however it is encoded or separated.
import { describe, expect, it } from 'vitest';
import { climbsAboveRoot } from './request-target.js';

describe('climbsAboveRoot', () => {
  it.each([
    '/../../etc/passwd',
    '/..',
    '/v1/../..',
    '/v1/%2e%2e/%2e%2e/etc/passwd',
    '/v1/%2E%2E/%2e./etc',
    '/v1/%252e%252e/%252e%252e/etc',
    '/v1\\..\\..\\etc',
    '/v1/..%5c..%5cetc',
    '/v1/..%2f..%2fetc',
    '/v1/..;/..;/etc',
    '/v1//../..',
    '/..?x=1',
  ])('refuses %s', (path) => {
    expect(climbsAboveRoot(path)).toBe(true);
  });

  it.each([
    '/v1/payments',
    '/v1/payments/../refunds',
    '/v1/./payments',
    '/v1/payments?next=../../etc',
    '/v1/payments/pay_..abc',
    '/',
  ])('lets %s through', (path) => {
    expect(climbsAboveRoot(path)).toBe(false);
  });
});
