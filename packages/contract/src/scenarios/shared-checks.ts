// Checks several scenarios evaluate: one definition each, so the ledger groups their runs under one id.
import type { CheckDefinition } from '../checks/ledger.js';
import { elements } from './spec-refs.js';

/** A valid create request with a test token answers 2xx with a payment (the step other checks build on). */
export const createsPayment: CheckDefinition<'createPayment.creates'> = {
  id: 'createPayment.creates',
  operation: 'createPayment',
  title: 'a valid create request with a test token answers 2xx with a payment id',
  element: elements.operation('/v1/payments', 'post'),
};

/** A problem answer's request_id is the Request-Id header of the same response. */
export const problemRequestId: CheckDefinition<'errors.request-id-matches'> = {
  id: 'errors.request-id-matches',
  operation: 'errors',
  title: "a problem's request_id equals the response's Request-Id header",
  element: elements.property('Problem', 'request_id'),
};
