// Delivers webhook events outside the request path: per-key queues on the sandbox clock, one timer, retries, the log.
import { PUBLIC_AND_LOOPBACK, type WebhookAddressPolicy } from '../domain/webhook-address.js';
import { maskSecrets, maskUrl } from '../shared/secrets.js';
import { type Clock, formatLogTime, formatTimestamp } from '../shared/time.js';
import { MAX_QUEUED_PER_KEY } from '../store/limits.js';
import type { AccountStore, WebhookStore } from '../store/store.js';
import type { EndpointRecord, QueuedDelivery, StoredEvent } from '../store/webhook-records.js';
import { hasSubscribers, receiversOf } from './receivers.js';
import { retryDelayMs } from './schedule.js';
import { signMessage } from './signing.js';
import {
  ADDRESS_REFUSED,
  fetchTransport,
  networkTransport,
  type WebhookTransport,
} from './transport.js';

/** An event to deliver, as the account service hands it over. */
export interface Delivery {
  account: AccountStore;
  event: StoredEvent;
  /** When it is due, on the key's sandbox clock. */
  dueAt: number;
}

/** A watched key with attempts due now, as a tick read it. */
interface Ready {
  account: AccountStore;
  state: WebhookStore;
  accountNow: number;
  /** The key's watch turn when the tick read it. */
  turn: number;
}

/** Options of the dispatcher. */
export interface DispatcherOptions {
  clock: Clock;
  /** How long one attempt may take, answer body included. */
  timeoutMs: number;
  /** The server-wide endpoint (the CLI's `--webhook-url`) that receives every key's events. */
  defaultEndpoint?: EndpointRecord | undefined;
  /**
   * Attempts in flight at once over all keys; more wait their turn, handed out round robin
   * among the keys that have attempts due. A key with none in flight may still start one beyond
   * it (up to twice as many in all), so hanging receivers of other keys never make it wait.
   * Default 32.
   */
  maxConcurrent?: number;
  /**
   * Attempts in flight at once for one key, at most; when several keys have attempts due, each
   * gets an equal share of `maxConcurrent` (at least one). Default 4.
   */
  maxConcurrentPerKey?: number;
  logger?: ((line: string) => void) | undefined;
  /**
   * Settles a watched key's payments that are due (the account service's one settlement
   * routine) and returns the events to deliver.
   */
  settleDue(account: AccountStore, accountNow: number): Promise<{ events: Delivery[] }>;
  random?: () => number;
  /**
   * Sends attempts through this `fetch` instead of the network (a test double, an in-process
   * handler): no address is checked and the answer's start is always logged.
   */
  fetch?: typeof fetch;
  /** The addresses a key's endpoints may reach over the network (default: public and loopback). */
  policy?: WebhookAddressPolicy;
  /**
   * Writes the store's changes so far to its durable store (the data directory): false when the
   * disk refuses them. Nothing is sent then, so that no event announces a change a crash would
   * lose; the attempts wait until the changes are stored. Absent: always stored (memory).
   */
  stored?: () => boolean;
}

/** How soon attempts held back by a refusing disk are tried again, in ms (a stored request also kicks). */
const STORE_RETRY_MS = 1000;

/** The longest delay setTimeout accepts. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The webhook dispatcher of one mock server. A status change only enqueues (no I/O on the
 * request path); a timer (unref'd, so it never keeps the process alive) then makes the attempts
 * that are due on each key's sandbox clock, settles pending payments of keys that have
 * endpoints, and schedules retries with backoff. Advancing a key's clock calls `kick()`, so
 * what came due runs at once.
 *
 * @example
 * const dispatcher = new WebhookDispatcher({ clock: systemClock, timeoutMs: 10_000, settleDue });
 * await dispatcher.deliver((await accountService.payments.create(request)).events);
 * dispatcher.close();
 */
export class WebhookDispatcher {
  readonly defaultEndpoint: EndpointRecord | undefined;
  /**
   * The keys watched for due work, each with the turn of its last `watch`: a tick that read a
   * key as idle forgets it only if nobody watched it again meanwhile (its reads were awaited).
   */
  private readonly active = new Map<AccountStore, number>();
  private watchTurn = 0;
  private readonly inFlight = new Set<AbortController>();
  /**
   * Attempts in flight now per key, in this process (the fair share of each key): the
   * dispatcher's own count, not the store's.
   */
  private readonly keyInFlight = new Map<WebhookStore, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private running = 0;
  /** Whether a tick runs (ticks await the store: one at a time; one asked meanwhile follows). */
  private ticking = false;
  private tickAgain = false;
  /** Store work under way outside a tick: queueing events, logging a finished attempt. */
  private busy = 0;
  private closed = false;
  private readonly settledWaiters: Array<() => void> = [];
  private readonly maxConcurrent: number;
  private readonly maxConcurrentPerKey: number;
  private readonly transport: WebhookTransport;
  /** Turns of the round robin: which ready key is served first next time. */
  private round = 0;

  constructor(private readonly options: DispatcherOptions) {
    this.defaultEndpoint = options.defaultEndpoint;
    this.maxConcurrent = options.maxConcurrent ?? 32;
    this.maxConcurrentPerKey = options.maxConcurrentPerKey ?? 4;
    this.transport =
      options.fetch === undefined
        ? networkTransport(options.policy ?? PUBLIC_AND_LOOPBACK)
        : fetchTransport(options.fetch);
  }

  /**
   * Queues events for every enabled endpoint that matches each one, in order, then wakes up to
   * send what is due. Resolves to how many attempts were queued.
   */
  async deliver(events: readonly Delivery[]): Promise<number> {
    if (events.length === 0) return 0;
    this.busy++;
    try {
      let queued = 0;
      for (const { account, event, dueAt } of events) {
        if (this.closed || account.closed || account.webhooks === undefined) continue;
        queued += await this.enqueueEvent(account, account.webhooks, event, dueAt);
      }
      return queued;
    } finally {
      this.busy--;
      this.notifySettled();
    }
  }

  /** Watches a key for due retries and settlements (after its clock moved), and runs them. */
  wake(account: AccountStore): void {
    if (!this.closed) this.watch(account);
  }

  /** Runs whatever is due now (after a clock advance, or a new event). */
  kick(): void {
    const now = this.options.clock.now();
    // A timer armed for a time the clock has reached fires now, not after the rest of its real
    // delay: a manual clock (the testing entry's) jumps ahead of real time.
    if (this.timer !== undefined && this.timerAt <= now) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.setTimer(now);
  }

  /**
   * Resolves once no attempt is in flight and none is due now (retries due later, on a key's
   * sandbox clock, do not count), or once the dispatcher is closed.
   */
  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Stops the timer and aborts every attempt in flight. */
  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.transport.close();
    this.active.clear();
    this.notifySettled();
  }

  private isSettled(): boolean {
    if (this.closed) return true;
    return (
      this.running === 0 &&
      this.busy === 0 &&
      !this.ticking &&
      (this.timer === undefined || this.timerAt > this.options.clock.now())
    );
  }

  private notifySettled(): void {
    if (this.settledWaiters.length === 0 || !this.isSettled()) return;
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  private async enqueueEvent(
    account: AccountStore,
    state: WebhookStore,
    event: StoredEvent,
    dueAt: number,
  ): Promise<number> {
    let queued = 0;
    for (const target of await receiversOf(state, this.defaultEndpoint, event.type)) {
      if (await this.enqueue(state, { event, target, attempt: 1, dueAt })) queued++;
    }
    this.watch(account);
    return queued;
  }

  /** Queues an attempt, or logs that it was dropped because too many wait already. */
  private async enqueue(
    state: WebhookStore,
    delivery: Omit<QueuedDelivery, 'sequence'>,
  ): Promise<boolean> {
    if (await state.enqueue(delivery)) return true;
    await this.recordDropped(state, delivery);
    return false;
  }

  /** Logs that an attempt was dropped because too many wait already for its key. */
  private async recordDropped(
    state: WebhookStore,
    delivery: Omit<QueuedDelivery, 'sequence'>,
  ): Promise<void> {
    await state.record({
      object: 'webhook_delivery',
      event_id: delivery.event.id,
      event_type: delivery.event.type,
      endpoint_id: delivery.target.endpoint.id,
      url: delivery.target.endpoint.url,
      attempt: delivery.attempt,
      attempted_at: formatTimestamp(delivery.dueAt),
      status: null,
      error: `dropped: ${MAX_QUEUED_PER_KEY} attempts are already waiting for this key`,
      latency_ms: 0,
      response_body: null,
      next_retry_at: null,
    });
  }

  private async deliverable(state: WebhookStore, target: EndpointRecord): Promise<boolean> {
    if (target.endpoint.status !== 'enabled') return false;
    if (target === this.defaultEndpoint) return true;
    // The endpoint as stored now: a networked store reads a new object each time, so it is
    // compared by what makes it the same receiver (still enabled, same URL, same signing key).
    const current = await state.endpointById(target.endpoint.id);
    return (
      current !== undefined &&
      (current === target ||
        (current.endpoint.status === 'enabled' &&
          current.endpoint.url === target.endpoint.url &&
          Buffer.compare(current.key, target.key) === 0))
    );
  }

  private inFlightOf(state: WebhookStore): number {
    return this.keyInFlight.get(state) ?? 0;
  }

  private watch(account: AccountStore): void {
    this.active.set(account, ++this.watchTurn);
    this.kick();
  }

  /** Stops watching a key read as idle at `turn`, unless it was watched again since. */
  private unwatch(account: AccountStore, turn: number | undefined): void {
    if (this.active.get(account) === turn) this.active.delete(account);
  }

  private setTimer(serverAt: number): void {
    if (this.closed || (this.timer !== undefined && this.timerAt <= serverAt)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = serverAt;
    const delay = Math.min(Math.max(0, serverAt - this.options.clock.now()), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.startTick(), delay);
    this.timer.unref?.();
  }

  /**
   * Runs a tick, one at a time: one asked while another runs follows it. An unexpected error
   * is logged, never left to crash the process.
   */
  private startTick(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    this.tick()
      .catch((error: unknown) => this.report('tick', error))
      .finally(() => {
        this.ticking = false;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.setTimer(this.options.clock.now());
        }
        this.notifySettled();
      });
  }

  private report(step: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.options.logger?.(
      `${formatLogTime(Date.now())} webhook dispatcher: unexpected error in ${step}: ${maskSecrets(message)}`,
    );
    // The next wake-up retries what is still due.
    if (!this.closed && this.timer === undefined) this.setTimer(this.options.clock.now() + 1000);
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    const serverNow = this.options.clock.now();
    let earliest = Number.POSITIVE_INFINITY;
    const ready: Ready[] = [];
    // A copy: keys watched while this tick awaits the store are kept, and looked at next tick.
    for (const [account, turn] of [...this.active]) {
      const state = account.webhooks;
      if (account.closed || state === undefined) {
        this.active.delete(account);
        continue;
      }
      const accountNow = account.now(serverNow);
      const subscribed = hasSubscribers(state, this.defaultEndpoint);
      if (subscribed) {
        await this.deliver((await this.options.settleDue(account, accountNow)).events);
      }
      let due = await state.nextAttemptAt();
      if (due !== undefined && due <= accountNow) {
        // Due now: started below, or by the kick of a finishing attempt.
        ready.push({ account, state, accountNow, turn });
        continue;
      }
      const settlesAt = subscribed ? await account.nextSettlementAt() : undefined;
      if (settlesAt !== undefined && (due === undefined || settlesAt < due)) due = settlesAt;
      if (due === undefined) {
        this.unwatch(account, turn);
        continue;
      }
      earliest = Math.min(earliest, due - (accountNow - serverNow));
    }
    if (this.closed) return;
    // What is due goes out only once the changes it announces are stored.
    if (ready.length === 0 || this.options.stored?.() !== false) await this.startFairly(ready);
    else earliest = Math.min(earliest, serverNow + STORE_RETRY_MS);
    for (const { account, state, accountNow, turn } of ready) {
      // What is left due later than now needs the timer; what is due now waits for a slot.
      const next = await state.nextAttemptAt();
      if (next !== undefined && next > accountNow) {
        earliest = Math.min(earliest, next - (accountNow - serverNow));
      } else if (next === undefined && this.inFlightOf(state) === 0) {
        this.unwatch(account, turn);
      }
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.setTimer(Math.max(earliest, serverNow + 1));
  }

  /**
   * Starts due attempts one key at a time, round robin from a turn that moves on every tick, so
   * no key's place in the list decides who gets the freed slots. Each key may have its equal
   * share of `maxConcurrent` in flight (at most `maxConcurrentPerKey`, at least one); a key with
   * nothing in flight may start one beyond `maxConcurrent`, up to twice it in all.
   */
  private async startFairly(ready: Ready[]): Promise<void> {
    if (ready.length === 0) return;
    const share = Math.max(
      1,
      Math.min(this.maxConcurrentPerKey, Math.floor(this.maxConcurrent / ready.length)),
    );
    const first = this.round++ % ready.length;
    for (let started = true; started; ) {
      started = false;
      for (let index = 0; index < ready.length; index++) {
        if (this.closed) return;
        const { account, state, accountNow } = ready[(first + index) % ready.length] as Ready;
        const inFlight = this.inFlightOf(state);
        if (inFlight >= share) continue;
        const free =
          this.running < this.maxConcurrent ||
          (inFlight === 0 && this.running < this.maxConcurrent * 2);
        if (!free) continue;
        // One store call: the attempt is this dispatcher's alone (or none is due). Only this
        // tick starts attempts, so the slots counted above are still free once it answers.
        const next = await state.claimDueAttempt(accountNow, share);
        if (next === undefined) continue;
        if (!this.closed && (await this.deliverable(state, next.target))) {
          this.attempt(account, state, next).catch((error: unknown) =>
            this.report('attempt', error),
          );
          started = true;
        } else {
          await state.finishAttempt(next);
          started = true; // a dropped attempt took no slot: look again
        }
      }
    }
  }

  private async attempt(
    account: AccountStore,
    state: WebhookStore,
    delivery: QueuedDelivery,
  ): Promise<void> {
    const { event, target } = delivery;
    const { clock } = this.options;
    const controller = new AbortController();
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    timeout.unref?.();
    this.running++;
    this.keyInFlight.set(state, this.inFlightOf(state) + 1);
    this.inFlight.add(controller);
    const serverNow = clock.now();
    const attemptedAt = account.now(serverNow);
    const timestamp = Math.floor(serverNow / 1000);
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    let excerpt: string | null = null;
    try {
      const answer = await this.transport.send({
        url: target.endpoint.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'payment-service-mock-webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signMessage(target.key, event.id, timestamp, event.body),
        },
        body: event.body,
        signal: controller.signal,
        restricted: target !== this.defaultEndpoint,
      });
      status = answer.status;
      excerpt = answer.excerpt;
    } catch (cause) {
      error = timedOut ? 'timeout' : `connection_error: ${describe(cause)}`;
    } finally {
      clearTimeout(timeout);
      // Its logging is under way until `record` below: not settled before it is written.
      this.busy++;
      this.running--;
      const left = this.inFlightOf(state) - 1;
      if (left > 0) this.keyInFlight.set(state, left);
      else this.keyInFlight.delete(state);
      this.inFlight.delete(controller);
    }
    try {
      await this.finish(account, state, delivery, attemptedAt, started, status, error, excerpt);
    } finally {
      this.busy--;
      this.notifySettled();
    }
  }

  /** Marks an attempt made, schedules its retry or disables its endpoint, and logs it. */
  private async finish(
    account: AccountStore,
    state: WebhookStore,
    delivery: QueuedDelivery,
    attemptedAt: number,
    started: number,
    status: number | null,
    error: string | null,
    excerpt: string | null,
  ): Promise<void> {
    if (this.closed || account.closed) return;
    const { event, target, attempt } = delivery;
    const { clock } = this.options;
    const latencyMs = Math.round(performance.now() - started);
    const succeeded = status !== null && status >= 200 && status < 300;
    let nextRetryAt: number | undefined;
    const delay =
      succeeded || status === 410 ? undefined : retryDelayMs(attempt, this.options.random);
    const retry =
      delay === undefined
        ? undefined
        : { event, target, attempt: attempt + 1, dueAt: account.now(clock.now()) + delay };
    // One store step marks the attempt made and schedules its retry: an instance killed between
    // two steps would leave the attempt made and its retry lost.
    const scheduled = await state.finishAttempt(delivery, retry);
    if (status === 410) await state.disableEndpoint(target);
    if (retry !== undefined) {
      if (scheduled) nextRetryAt = retry.dueAt;
      else await this.recordDropped(state, retry);
    }
    await state.record({
      object: 'webhook_delivery',
      event_id: event.id,
      event_type: event.type,
      endpoint_id: target.endpoint.id,
      url: target.endpoint.url,
      attempt,
      attempted_at: formatTimestamp(attemptedAt),
      status,
      error,
      latency_ms: latencyMs,
      response_body: excerpt,
      next_retry_at: nextRetryAt === undefined ? null : formatTimestamp(nextRetryAt),
    });
    this.options.logger?.(
      `${formatLogTime(Date.now())} webhook ${event.type} ${event.id} → ${maskUrl(target.endpoint.url)} ${status ?? error} ${latencyMs}ms (attempt ${attempt}${nextRetryAt === undefined ? '' : `, retry at ${formatTimestamp(nextRetryAt)}`}${status === 410 ? ', endpoint disabled' : ''})`,
    );
    this.watch(account);
  }
}

function describe(cause: unknown): string {
  const own = cause as {
    code?: unknown;
    message?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  if (own?.code === ADDRESS_REFUSED) return `address refused: ${String(own.message)}`;
  const inner = own?.cause;
  if (typeof inner?.code === 'string') return inner.code;
  if (typeof inner?.message === 'string') return inner.message;
  if (typeof own?.code === 'string') return own.code;
  return cause instanceof Error ? cause.message : String(cause);
}
