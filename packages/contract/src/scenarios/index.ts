// Every scenario the runner executes, in order: the same list runs in the CLI, the programmatic API and our own tests.
import type { CheckIdOf, Scenario } from '../runner/scenario.js';
import { badInput } from './bad-input.js';
import { createPayment } from './create-payment.js';
import { idempotency } from './idempotency.js';
import { lifecycle } from './lifecycle.js';
import { listing } from './listing.js';
import { sandboxControls } from './sandbox-controls.js';
import { webhookDeliveries, webhookEndpoints } from './webhooks.js';

const ordered = [
  createPayment,
  lifecycle,
  idempotency,
  listing,
  webhookEndpoints,
  webhookDeliveries,
  badInput,
  sandboxControls,
] as const;

/** The scenarios, in the order a run executes them. */
export const scenarios: readonly Scenario[] = ordered;

/** The id of every scenario check: a typo in a step's `context.check(id)` fails the typecheck. */
export type CheckId = CheckIdOf<(typeof ordered)[number]>;
