// A payment as the API answers it, for store and account tests.
import type { components } from '@payment-service/openapi';

type Payment = components['schemas']['Payment'];

/**
 * An uncaptured payment of 1000 KZT with the given id (and any field overridden).
 *
 * @example
 * testPayment('pay_1', { status: 'PENDING' }).status; // 'PENDING'
 */
export function testPayment(id: string, overrides: Partial<Payment> = {}): Payment {
  return {
    id,
    object: 'payment',
    status: 'AUTHORIZED',
    amount: 1000,
    currency: 'KZT',
    created_at: '2025-01-01T00:00:00Z',
    capture: false,
    description: null,
    amount_captured: 0,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
    ...overrides,
  };
}
