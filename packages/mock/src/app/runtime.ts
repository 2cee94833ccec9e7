// The shared parts of one mock server: options, store, token table, validators, dispatcher, timers.
import { type components, openapiDocument, type SandboxComponents } from '@payment-service/openapi';
import { createTokenTable, type TokenTable } from '../domain/tokens.js';
import {
  openapiRequestValidators,
  sandboxRequestValidators,
} from '../generated/request-validators.js';
import {
  AccountService,
  type EventDelivery,
  type SandboxState,
  settleDuePayments,
} from '../service/account-service.js';
import { seededRandom, systemRandom } from '../shared/ids.js';
import { maskSecrets } from '../shared/secrets.js';
import {
  type ApiValidators,
  createSchemaValidators,
  type SandboxValidators,
} from '../shared/validation.js';
import { AccountStore } from '../store/accounts.js';
import { IDLE_ACCOUNT_MS } from '../store/memory.js';
import { createDefaultEndpoint } from '../webhooks/default-endpoint.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { type MockServerOptions, type ResolvedOptions, resolveOptions } from './options.js';

/** Everything the routes and middleware need, built once per server. */
export interface Runtime {
  options: ResolvedOptions;
  tokens: TokenTable;
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  limitBounds: { minimum: number; maximum: number; default: number };
  /** The account service of one key (expired idempotency records are swept first). */
  serviceFor(apiKey: string): AccountService;
  /** Hands events to the webhook dispatcher and runs whatever came due. */
  deliver(events: readonly EventDelivery[]): void;
  /** Waits `ms` (for injected latency); `close()` ends every wait at once. */
  sleep(ms: number): Promise<void>;
  /** Resolves once no webhook attempt is in flight or due now. */
  webhooksSettled(): Promise<void>;
  /** What every account service shares (the testing entry reads and seeds accounts through it). */
  state: SandboxState;
  /** Watches a key for what its clock made due (settlements, retries) and runs it. */
  wake(apiKey: string): void;
  close(): void;
}

/** Hooks of the testing entry into a runtime. */
export interface RuntimeHooks {
  /**
   * Rewrites the events about to be queued for delivery (the testing entry's duplicating and
   * reordering mode); the identity by default.
   */
  planDeliveries?(events: readonly EventDelivery[]): readonly EventDelivery[];
}

/** Accounts kept at once; beyond it idle ones (least recently used first) are forgotten. */
export const MAX_ACCOUNTS = 10_000;

/**
 * Builds the runtime: resolves options, creates the store and the dispatcher.
 *
 * @example
 * const runtime = createRuntime({ settlementDelaySeconds: 1 });
 * runtime.serviceFor('sk_test_12345678').clock().offset_seconds; // 0
 */
export function createRuntime(options: MockServerOptions = {}, hooks: RuntimeHooks = {}): Runtime {
  const resolved = resolveOptions(options);
  const random = resolved.seed === undefined ? systemRandom : seededRandom(resolved.seed);
  const plan = hooks.planDeliveries ?? ((events: readonly EventDelivery[]) => events);
  const limitSchema = openapiDocument.components.parameters.Limit.schema;
  const waits = new Map<ReturnType<typeof setTimeout>, () => void>();
  const store = new AccountStore(
    {
      maxPaymentsPerKey: resolved.maxPaymentsPerKey,
      maxPaymentsTotal: resolved.maxPaymentsTotal,
      maxIdempotencyRecordsPerKey: resolved.maxPaymentsPerKey,
      maxIdempotencyRecordsTotal: resolved.maxPaymentsTotal,
      maxAccounts: MAX_ACCOUNTS,
      memoryBudgetBytes: resolved.limits.memoryBudgetBytes,
      keyMemoryBudgetBytes: resolved.limits.keyMemoryBudgetBytes,
      idleMs: IDLE_ACCOUNT_MS,
    },
    resolved.logger ? { log: resolved.logger } : {},
  );
  const tokens = createTokenTable(resolved.extraTokens);
  const defaultEndpoint =
    resolved.webhookUrl === undefined
      ? undefined
      : createDefaultEndpoint(resolved.webhookUrl, resolved.webhookSecret, resolved.clock.now());
  const sandbox: SandboxState = {
    store,
    tokens,
    clock: resolved.clock,
    settlementDelayMs: resolved.settlementDelaySeconds * 1000,
    idempotencyTtlMs: resolved.idempotencyTtlSeconds * 1000,
    defaultEndpoint,
    heldRequests: new Map(),
    webhookPolicy: resolved.webhookPolicy,
    random,
  };
  const { webhookFetch } = resolved;
  const webhooks = new WebhookDispatcher({
    clock: resolved.clock,
    timeoutMs: resolved.webhookTimeoutMs,
    defaultEndpoint,
    logger: resolved.logger,
    settleDue: (account, accountNow) => {
      const { events } = settleDuePayments(sandbox, account, accountNow);
      return { events: [...plan(events)] };
    },
    random: () => random.fraction(),
    policy: resolved.webhookPolicy,
    ...(webhookFetch === undefined
      ? {}
      : { fetch: (input, init) => webhookFetch(String(input), init ?? {}) }),
  });
  return {
    options: resolved,
    tokens,
    validators: createSchemaValidators<
      components['schemas'],
      keyof typeof openapiRequestValidators
    >(openapiRequestValidators),
    sandboxValidators: createSchemaValidators<
      SandboxComponents['schemas'],
      keyof typeof sandboxRequestValidators
    >(sandboxRequestValidators),
    limitBounds: {
      minimum: limitSchema.minimum,
      maximum: limitSchema.maximum,
      default: limitSchema.default,
    },
    serviceFor(apiKey) {
      store.sweep(resolved.clock.now());
      return new AccountService(sandbox, apiKey);
    },
    deliver(events) {
      // Delivery runs after a change was committed: its failure is logged, never answered.
      try {
        webhooks.deliver(plan(events));
        webhooks.kick();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        resolved.logger?.(`webhook dispatcher: could not queue events: ${maskSecrets(message)}`);
      }
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
    webhooksSettled: () => webhooks.settled(),
    state: sandbox,
    wake(apiKey) {
      const account = store.find(apiKey);
      if (account !== undefined) webhooks.wake(account);
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
