// Public entry point of @payment-service/mock/testing: the sandbox inside a merchant's own test suite.
export type { WebhookDelivery } from '../controls.js';
export type { SandboxDuration } from './clock.js';
export { SandboxFixtureError } from './fixtures.js';
export { fromNodeHandler, type NodeRequestListener } from './node-handler.js';
export { createTestSandbox } from './sandbox.js';
export { TRIGGERABLE_EVENTS } from './triggers.js';
export {
  type DeliverToOptions,
  type InProcessEndpoint,
  type ListeningSandbox,
  type NextEventFilter,
  type NextEventOptions,
  type Payment,
  type PaymentFixture,
  type PaymentStatus,
  type SandboxFixtures,
  type SandboxSnapshot,
  SNAPSHOT_VERSION,
  type SnapshotIdempotencyRecord,
  type SnapshotPayment,
  type SnapshotQueuedDelivery,
  type SnapshotWebhookEndpoint,
  type TestSandbox,
  type TestSandboxClock,
  type TestSandboxOptions,
  type TestSandboxWebhooks,
  type TestWebhookDelivery,
  type TriggerableEvent,
  type TriggerParams,
  type WebhookHandler,
} from './types.js';
export { testSandboxFixture } from './vitest-fixture.js';
