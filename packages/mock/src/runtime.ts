// The shared state of one mock server: options, store, token table, compiled validators, timers.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import { createTokenTable, type TokenTable } from './domain/tokens.js';
import { type MockServerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { AccountStore } from './store/accounts.js';
import { type BodyValidator, compileBodyValidators, type SpecDocument } from './validation.js';
import { createDefaultEndpoint } from './webhooks/default-endpoint.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

/** Everything a request handler needs, built once per server. */
export interface Runtime {
  options: ResolvedOptions;
  store: AccountStore;
  tokens: TokenTable;
  validators: Record<
    | 'CreatePaymentRequest'
    | 'CapturePaymentRequest'
    | 'CancelPaymentRequest'
    | 'CreateRefundRequest'
    | 'CreateWebhookEndpointRequest',
    BodyValidator
  >;
  /** Sends webhook events, outside the request path. */
  webhooks: WebhookDispatcher;
  sandboxValidators: Record<'AdvanceClockRequest' | 'Faults', BodyValidator>;
  limitBounds: { minimum: number; maximum: number; default: number };
  /** Waits `ms` (for injected latency); `close()` ends every wait at once. */
  sleep(ms: number): Promise<void>;
  close(): void;
}

/** Accounts kept at once; the least recently used is forgotten beyond it. */
export const MAX_ACCOUNTS = 10_000;

interface LimitParameter {
  components?: { parameters?: { Limit?: { schema?: Record<string, number> } } };
}

/**
 * Builds the runtime: resolves options and compiles every validator once.
 *
 * @example
 * const runtime = createRuntime({ settlementDelaySeconds: 1 });
 * runtime.validators.CreatePaymentRequest({}); // field errors
 */
export function createRuntime(options: MockServerOptions = {}): Runtime {
  const resolved = resolveOptions(options);
  const document = openapiDocument as unknown as SpecDocument & LimitParameter;
  const limitSchema = document.components?.parameters?.Limit?.schema ?? {};
  const waits = new Map<ReturnType<typeof setTimeout>, () => void>();
  const webhooks = new WebhookDispatcher({
    clock: resolved.clock,
    timeoutMs: resolved.webhookTimeoutMs,
    defaultEndpoint:
      resolved.webhookUrl === undefined
        ? undefined
        : createDefaultEndpoint(resolved.webhookUrl, resolved.webhookSecret, resolved.clock.now()),
    logger: resolved.logger,
  });
  return {
    options: resolved,
    store: new AccountStore({
      maxPaymentsPerKey: resolved.maxPaymentsPerKey,
      maxPaymentsTotal: resolved.maxPaymentsTotal,
      maxIdempotencyRecordsPerKey: resolved.maxPaymentsPerKey,
      maxIdempotencyRecordsTotal: resolved.maxPaymentsTotal,
      maxAccounts: MAX_ACCOUNTS,
    }),
    tokens: createTokenTable(resolved.extraTokens),
    validators: compileBodyValidators(document, [
      'CreatePaymentRequest',
      'CapturePaymentRequest',
      'CancelPaymentRequest',
      'CreateRefundRequest',
      'CreateWebhookEndpointRequest',
    ]),
    webhooks,
    sandboxValidators: compileBodyValidators(sandboxDocument as unknown as SpecDocument, [
      'AdvanceClockRequest',
      'Faults',
    ]),
    limitBounds: {
      minimum: limitSchema.minimum ?? 1,
      maximum: limitSchema.maximum ?? 100,
      default: limitSchema.default ?? 10,
    },
    sleep(ms) {
      if (ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waits.delete(timer);
          resolve();
        }, ms);
        waits.set(timer, resolve);
      });
    },
    close() {
      webhooks.close();
      for (const [timer, resolve] of waits) {
        clearTimeout(timer);
        resolve();
      }
      waits.clear();
    },
  };
}
