// Public entry point of @payment-service/mock: the mock server factory, its options and the test tokens.
export { createMockServer, type MockServer } from './app.js';
export {
  formatTokenTable,
  type PaymentFailure,
  TEST_TOKEN_BEHAVIOURS,
  TEST_TOKENS,
  type TestToken,
  type TokenBehaviour,
} from './domain/tokens.js';
export type { FailureStatus, Faults } from './faults.js';
export type { MockServerOptions } from './options.js';
export type { Clock } from './time.js';
