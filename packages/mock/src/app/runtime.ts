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
import { PendingWrites } from '../service/pending-writes.js';
import { seededRandom, systemRandom } from '../shared/ids.js';
import type { ProblemInit } from '../shared/problems.js';
import { maskSecrets } from '../shared/secrets.js';
import {
  type ApiValidators,
  createSchemaValidators,
  type SandboxValidators,
} from '../shared/validation.js';
import { DataDirectory } from '../store/data-dir/data-directory.js';
import { dumpStore } from '../store/data-dir/dump.js';
import { JournaledStore } from '../store/data-dir/journaled-store.js';
import { replayJournal } from '../store/data-dir/replay.js';
import { IDLE_ACCOUNT_MS } from '../store/limits.js';
import { handleOf, MemorySeam } from '../store/memory/memory-seam.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { OpeningStore } from '../store/opening-store.js';
import { outsideStoreBudget } from '../store/redis/budget.js';
import { StoreFormatError } from '../store/redis/errors.js';
import { openRedisStore } from '../store/redis/open.js';
import type { RedisStore } from '../store/redis/redis-store.js';
import type { SandboxStore } from '../store/store.js';
import { createDefaultEndpoint } from '../webhooks/default-endpoint.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { type MockServerOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { createRecordChecks } from './record-checks.js';

/** Everything the routes and middleware need, built once per server. */
export interface Runtime {
  options: ResolvedOptions;
  tokens: TokenTable;
  validators: ApiValidators;
  sandboxValidators: SandboxValidators;
  limitBounds: { minimum: number; maximum: number; default: number };
  /** The account service of one key (expired idempotency records are swept first). */
  serviceFor(apiKey: string): AccountService;
  /**
   * Hands events to the webhook dispatcher and runs whatever came due: resolves once they are
   * queued; never rejects (a failure is logged).
   */
  deliver(events: readonly EventDelivery[]): Promise<void>;
  /** Waits `ms` (for injected latency); `close()` ends every wait at once. */
  sleep(ms: number): Promise<void>;
  /** Resolves once no webhook attempt is in flight or due now. */
  webhooksSettled(): Promise<void>;
  /**
   * Resolves once the inspector's records of the requests answered so far are stored (a
   * networked store writes them after the answer, without holding it; at once in memory).
   */
  requestsRecorded(): Promise<void>;
  /** What every account service shares (the testing entry reads and seeds accounts through it). */
  state: SandboxState;
  /** Watches a key for what its clock made due (settlements, retries) and runs it. */
  wake(apiKey: string): Promise<void>;
  /**
   * Writes the changes made so far to the data directory (nothing to do in memory): the problem
   * to answer instead when the disk refuses them.
   */
  persist(): ProblemInit | undefined;
  /** The data directory in use, if any. */
  dataDirectory: DataDirectory | undefined;
  /**
   * The memory store itself when the runtime runs on one (no data directory, no Valkey/Redis),
   * read at once by what must answer synchronously: the testing entry's `snapshot()` and
   * `clock.now()`. Writes go through `state.store`, as every request's do.
   */
  memory: MemoryStore | undefined;
  /**
   * Resolves once the store is open (at once in memory and with a data directory); rejects with
   * the reason a Valkey/Redis store cannot be opened now (unreachable, another format).
   */
  ready(): Promise<void>;
  close(): void;
}

/** The type of the process warnings the data directory gives when no logger is set. */
export const DATA_DIRECTORY_WARNING = 'PaymentServiceMockWarning';

/** Seconds a client is asked to wait while the data directory cannot be written. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** Hooks of the testing entry into a runtime. */
export interface RuntimeHooks {
  /**
   * Rewrites the events about to be queued for delivery (the testing entry's duplicating and
   * reordering mode); the identity by default.
   */
  planDeliveries?(events: readonly EventDelivery[]): readonly EventDelivery[];
  /**
   * The store seam the service and the dispatcher use, around the memory store without a data
   * directory (tests run them over an asynchronous one); the memory store itself by default.
   */
  seam?(store: MemoryStore): SandboxStore;
}

/** How often a fleet's instance reads the store's index of keys with due work, in ms. */
const DUE_POLL_MS = 1000;

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
  // What the data directory reports (a torn line dropped, writes refused) is never silenced:
  // without a logger (the CLI's --quiet) it is a process warning, on stderr.
  const dataDirectory =
    resolved.dataDir === undefined
      ? undefined
      : DataDirectory.open(resolved.dataDir, {
          log: resolved.logger ?? ((line) => process.emitWarning(line, DATA_DIRECTORY_WARNING)),
        });
  const storeLimits = {
    maxPaymentsPerKey: resolved.maxPaymentsPerKey,
    maxPaymentsTotal: resolved.maxPaymentsTotal,
    maxIdempotencyRecordsPerKey: resolved.maxPaymentsPerKey,
    maxIdempotencyRecordsTotal: resolved.maxPaymentsTotal,
    maxAccounts: MAX_ACCOUNTS,
    memoryBudgetBytes: resolved.limits.memoryBudgetBytes,
    keyMemoryBudgetBytes: resolved.limits.keyMemoryBudgetBytes,
    idleMs: IDLE_ACCOUNT_MS,
  };
  const tokens = createTokenTable(resolved.extraTokens);
  const validators = createSchemaValidators<
    components['schemas'],
    keyof typeof openapiRequestValidators
  >(openapiRequestValidators);
  const sandboxValidators = createSchemaValidators<
    SandboxComponents['schemas'],
    keyof typeof sandboxRequestValidators
  >(sandboxRequestValidators);
  // What a store reads back (the journal, Valkey/Redis) passes the API's and restore()'s checks.
  const checks = createRecordChecks({
    validators,
    sandboxValidators,
    tokens,
    webhookPolicy: resolved.webhookPolicy,
  });
  // On Valkey/Redis every call goes to the shared store once open; else the memory store (journaled
  // to the data directory when there is one).
  const { redisUrl } = resolved;
  /** The Valkey/Redis store once open (its due index is polled; it is closed with the runtime). */
  let fleet: RedisStore | undefined;
  const redis =
    redisUrl === undefined
      ? undefined
      : new OpeningStore(
          () =>
            openRedisStore({
              url: redisUrl,
              prefix: resolved.redisPrefix,
              limits: storeLimits,
              checks,
              // Never silenced either: without a logger (--quiet) a process warning, on stderr.
              log: resolved.logger ?? ((line) => process.emitWarning(line, DATA_DIRECTORY_WARNING)),
            }).then((opened) => {
              fleet = opened.store;
              return opened.store;
            }),
          // Another format under the prefix stays refused; an unreachable store is tried again.
          (error) => !(error instanceof StoreFormatError),
        );
  // With a data directory, the memory store wrapped: each change it commits is journaled.
  const journaled =
    redis === undefined && dataDirectory !== undefined
      ? new JournaledStore(storeLimits, { log: resolved.logger }, dataDirectory)
      : undefined;
  /** The memory store, when the runtime runs on one without a data directory. */
  const memory =
    redis === undefined && journaled === undefined
      ? new MemoryStore(storeLimits, { log: resolved.logger })
      : undefined;
  let store: SandboxStore;
  if (redis !== undefined) {
    store = redis;
  } else if (journaled !== undefined) {
    store = new MemorySeam(journaled);
  } else {
    const held = memory as MemoryStore;
    store = hooks.seam?.(held) ?? new MemorySeam(held);
  }
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
    maxPaymentsPerKey: resolved.maxPaymentsPerKey,
    defaultEndpoint,
    heldRequests: new Map(),
    webhookPolicy: resolved.webhookPolicy,
    random,
    pendingRecords: new PendingWrites(),
  };
  const { webhookFetch } = resolved;
  const webhooks = new WebhookDispatcher({
    clock: resolved.clock,
    timeoutMs: resolved.webhookTimeoutMs,
    defaultEndpoint,
    logger: resolved.logger,
    settleDue: async (account, accountNow) => {
      const { events } = await settleDuePayments(sandbox, account, accountNow);
      return { events: [...plan(events)] };
    },
    random: () => random.fraction(),
    policy: resolved.webhookPolicy,
    ...(dataDirectory === undefined ? {} : { stored: () => dataDirectory.flush() }),
    ...(webhookFetch === undefined
      ? {}
      : { fetch: (input, init) => webhookFetch(String(input), init ?? {}) }),
  });
  /** Whether the last persist() was refused by the disk. */
  let refusing = false;
  if (dataDirectory !== undefined && journaled !== undefined) {
    const replayed = journaled;
    try {
      replayed.sweep(resolved.clock.now());
      const watched = replayJournal(
        replayed,
        (apply) => dataDirectory.replay(apply),
        defaultEndpoint,
        checks,
      );
      dataDirectory.attach({
        liveBytes: () => replayed.memory.stats().bytes,
        dump: () => dumpStore(replayed),
      });
      // What fell due while the sandbox was down (deliveries, settlements) goes out now.
      for (const account of watched) webhooks.wake(handleOf(account));
    } catch (error) {
      webhooks.close();
      dataDirectory.close();
      throw error;
    }
  }
  // In a fleet, any instance may hold the due work of a key it never served (its instance died):
  // the store's fleet-wide index of due keys is read once a second.
  let duePoll: ReturnType<typeof setInterval> | undefined;
  if (redis !== undefined) {
    let polling = false;
    duePoll = setInterval(() => {
      const opened = fleet;
      if (polling || opened === undefined) return;
      polling = true;
      opened
        .dueAccounts(resolved.clock.now())
        .then(
          (accounts) => {
            for (const account of accounts) webhooks.wake(account);
          },
          // The store is unreachable: the next poll tries again.
          () => {},
        )
        .finally(() => {
          polling = false;
        });
    }, DUE_POLL_MS);
    duePoll.unref();
  }
  return {
    options: resolved,
    dataDirectory,
    memory,
    async ready() {
      if (redis !== undefined) await redis.ready();
    },
    persist() {
      if (dataDirectory === undefined) return undefined;
      if (dataDirectory.flush()) {
        // Writes go through again: the attempts held back meanwhile go out now.
        if (refusing) webhooks.kick();
        refusing = false;
        return undefined;
      }
      refusing = true;
      return {
        code: 'store_unavailable',
        detail: `The sandbox cannot store changes now (${dataDirectory.failure ?? 'write refused'} on its data directory); a change is answered only once it is stored. Retry later with the same Idempotency-Key.`,
        headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
      };
    },
    tokens,
    validators,
    sandboxValidators,
    limitBounds: {
      minimum: limitSchema.minimum,
      maximum: limitSchema.maximum,
      default: limitSchema.default,
    },
    serviceFor(apiKey) {
      sandbox.store.sweep(resolved.clock.now());
      // One per request: it holds the request's store session.
      return new AccountService(sandbox, apiKey);
    },
    async deliver(events) {
      // Delivery runs after a change was committed: its failure is logged, never answered.
      try {
        // Not cut short by the request's store budget: the change they tell of is made.
        await outsideStoreBudget(() => webhooks.deliver(plan(events)));
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
    requestsRecorded: () => {
      sandbox.store.flush?.();
      return sandbox.pendingRecords.settled();
    },
    state: sandbox,
    async wake(apiKey) {
      const account = await sandbox.store.find(apiKey);
      if (account !== undefined) webhooks.wake(account);
    },
    close() {
      webhooks.close();
      dataDirectory?.close();
      if (duePoll !== undefined) clearInterval(duePoll);
      redis?.close();
      if (fleet !== undefined) void fleet.close().catch(() => {});
      for (const [timer, resolve] of waits) {
        clearTimeout(timer);
        resolve();
      }
      waits.clear();
    },
  };
}
