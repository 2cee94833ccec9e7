// Public entry point of @payment-service/mock: the mock server factory, its options and the test tokens.
export { createMockServer, type MockServer } from './app/mock-server.js';
export { DEFAULT_MAX_BODY_BYTES, type MockServerOptions } from './app/options.js';
export {
  formatTokenTable,
  type PaymentFailure,
  TEST_TOKEN_BEHAVIOURS,
  TEST_TOKENS,
  type TestToken,
  type TokenBehaviour,
} from './domain/tokens.js';
export type { FailureStatus, Faults } from './shared/faults.js';
export { MAX_LISTED_ERRORS, MAX_PROBLEM_BYTES } from './shared/problems.js';
export type { Clock } from './shared/time.js';
export { DEFAULT_ENDPOINT_ID, generateWebhookSecret } from './webhooks/default-endpoint.js';
export { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from './webhooks/schedule.js';
