// `sandbox.webhooks.next()`: waiters made before or after the action, bounded on the sandbox clock and in real time, that never reject unobserved.
import type { WebhookEvent } from '@payment-service/sdk';
import { type NextWanted, nextWanted } from './next-options.js';
import type { HandledDelivery } from './webhook-router.js';

/** Why a waiter gave up, for its error message. */
export type GiveUp =
  | { reason: 'idle'; timeoutMs: number }
  | { reason: 'within'; deadline: number }
  | { reason: 'closed' };

/** What the waiters need from their sandbox. */
export interface WaitersHooks {
  /** The deliveries the handlers got, oldest first (the router's). */
  deliveries(): readonly HandledDelivery[];
  /** The sandbox clock (ms epoch). */
  now(): number;
  /** Resolves once no attempt is in flight or due now. */
  settled(): Promise<void>;
  /** The error message of a waiter that gives up: what was delivered, what is due. */
  explain(wanted: NextWanted, why: GiveUp): Promise<string>;
  /** Runs `run` after `ms` real ms; returns its cancel. Default: `setTimeout`. */
  schedule?(run: () => void, ms: number): () => void;
}

/** One waiter not settled yet. */
interface Pending {
  wanted: NextWanted;
  /** The last instant of the sandbox clock a delivery counts at, with `within`. */
  deadline: number | undefined;
  /** Whether the test awaited it (called `then`): only then does real time count. */
  observed: boolean;
  cancelTimer: (() => void) | undefined;
  resolve(event: WebhookEvent): void;
  reject(error: Error): void;
}

/**
 * The promise `next()` returns. Its rejection is marked handled when it is made, so a waiter
 * nobody awaited yet never raises an unhandled rejection; awaiting it (anything that calls
 * `then`: `await`, `Promise.all`, `expect(…).rejects`) rethrows it, and starts its real-time
 * bound. A subclass, so that `await` calls its `then` (a plain promise's is bypassed).
 */
class WebhookWaiter extends Promise<WebhookEvent> {
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Called once, on the first `then`. */
  onObserved: (() => void) | undefined;

  // biome-ignore lint/suspicious/noThenProperty: a promise subclass, whose then must see the test await it
  override then<Fulfilled = WebhookEvent, Rejected = never>(
    onFulfilled?: ((event: WebhookEvent) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    const observed = this.onObserved;
    this.onObserved = undefined;
    observed?.();
    return super.then(onFulfilled, onRejected);
  }
}

/**
 * The waiters of one sandbox. A waiter takes the oldest delivery not taken yet that matches
 * (one made before it too); otherwise the first one that comes, in the order the waiters were
 * made. It gives up when the sandbox clock passes its `within`, when the sandbox closes, or,
 * once awaited, when the sandbox stayed idle (no request, no clock move, no attempt in flight
 * or due now) for its `timeout` of real time: deliveries and retries are due on the sandbox
 * clock, which only the test moves, so waiting longer would only delay the message.
 *
 * @example
 * const waiters = new WebhookWaiters({ deliveries: () => router.handled, now, settled, explain });
 * const handled = waiters.next({ type: 'payment.succeeded' });
 * await waiters.during(() => clock.advance(5_000));
 * const event = await handled;
 */
export class WebhookWaiters {
  private readonly pending: Pending[] = [];
  /** Work under way (requests, clock moves): the sandbox is not idle. */
  private busy = 0;
  /** Counts every start and end of work or of an attempt. */
  private turn = 0;
  private readonly schedule: (run: () => void, ms: number) => () => void;

  constructor(private readonly hooks: WaitersHooks) {
    this.schedule =
      hooks.schedule ??
      ((run, ms) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      });
  }

  /** A waiter for the next delivery `options` describes (see `TestSandboxWebhooks.next`). */
  next(options: unknown): Promise<WebhookEvent> {
    const { waiter, settle } = newWaiter();
    let wanted: NextWanted;
    try {
      wanted = nextWanted(options);
    } catch (error) {
      settle.reject(error as Error);
      return waiter;
    }
    const found = this.hooks.deliveries().find((delivery) => takes(wanted, delivery));
    if (found !== undefined) {
      found.taken = true;
      settle.resolve(found.event);
      return waiter;
    }
    const entry: Pending = {
      wanted,
      deadline: wanted.withinMs === undefined ? undefined : this.hooks.now() + wanted.withinMs,
      observed: false,
      cancelTimer: undefined,
      ...settle,
    };
    this.pending.push(entry);
    waiter.onObserved = () => {
      if (!this.pending.includes(entry)) return;
      entry.observed = true;
      this.arm(entry);
    };
    return waiter;
  }

  /** A waiter that rejects with `message` when awaited (and never unobserved). */
  refused(message: string): Promise<WebhookEvent> {
    const { waiter, settle } = newWaiter();
    settle.reject(new Error(message));
    return waiter;
  }

  /** A handler answered: the first waiter that wants the delivery takes it. */
  delivered(delivery: HandledDelivery): void {
    this.expire(delivery.at);
    const entry = this.pending.find((candidate) => takes(candidate.wanted, delivery));
    if (entry === undefined) return;
    delivery.taken = true;
    this.remove(entry);
    entry.resolve(delivery.event);
  }

  /** Runs work that may lead to deliveries (a request, a clock move): the sandbox is busy. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    this.activity();
    try {
      return await work();
    } finally {
      this.busy--;
      this.activity();
    }
  }

  /** An attempt started or ended: awaited waiters count their idle time again from now. */
  activity(): void {
    this.turn++;
    for (const entry of this.pending) if (entry.observed) this.arm(entry);
  }

  /** The sandbox clock moved: waiters whose `within` it passed give up. */
  clockMoved(): void {
    this.expire(this.hooks.now());
  }

  /** The sandbox closed: every waiter still waiting gives up. */
  close(): void {
    for (const entry of [...this.pending]) void this.giveUp(entry, { reason: 'closed' });
  }

  private expire(now: number): void {
    for (const entry of [...this.pending]) {
      if (entry.deadline !== undefined && now > entry.deadline) {
        void this.giveUp(entry, { reason: 'within', deadline: entry.deadline });
      }
    }
  }

  /** Starts (again) the waiter's count of idle real time. */
  private arm(entry: Pending): void {
    entry.cancelTimer?.();
    entry.cancelTimer = this.schedule(() => {
      entry.cancelTimer = undefined;
      void this.idleFor(entry);
    }, entry.wanted.timeoutMs);
  }

  /** The timeout ran out: gives up if the sandbox is idle, nothing having happened meanwhile. */
  private async idleFor(entry: Pending): Promise<void> {
    const turn = this.turn;
    await this.hooks.settled();
    // Work or an attempt since: it armed the waiter again (or its end will).
    if (!this.pending.includes(entry) || this.busy > 0 || this.turn !== turn) return;
    await this.giveUp(entry, { reason: 'idle', timeoutMs: entry.wanted.timeoutMs });
  }

  private async giveUp(entry: Pending, why: GiveUp): Promise<void> {
    if (!this.remove(entry)) return;
    let message: string;
    try {
      message = await this.hooks.explain(entry.wanted, why);
    } catch (error) {
      message = `${entry.wanted.call}: gave up (${why.reason}); the sandbox could not say what was delivered: ${String(error)}`;
    }
    entry.reject(new Error(message));
  }

  /** Takes the waiter off the list; false if it was not on it. */
  private remove(entry: Pending): boolean {
    const index = this.pending.indexOf(entry);
    if (index === -1) return false;
    this.pending.splice(index, 1);
    entry.cancelTimer?.();
    entry.cancelTimer = undefined;
    return true;
  }
}

/** A waiter and its settle functions; its rejection is marked handled from the start. */
function newWaiter(): { waiter: WebhookWaiter; settle: Pick<Pending, 'resolve' | 'reject'> } {
  let settle!: Pick<Pending, 'resolve' | 'reject'>;
  const waiter = new WebhookWaiter((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A rejection nobody awaited yet is no unhandled rejection (the intrinsic `then`: this one
  // does not count as the test awaiting it).
  Promise.prototype.then.call(waiter, undefined, () => {});
  return { waiter, settle };
}

/** Whether a waiter takes a delivery: not taken yet, of its type and payment, accepted if it must be. */
function takes(wanted: NextWanted, delivery: HandledDelivery): boolean {
  return (
    !delivery.taken &&
    (!wanted.acceptedOnly || delivery.accepted) &&
    (wanted.type === undefined || delivery.event.type === wanted.type) &&
    (wanted.paymentId === undefined || delivery.event.data.object.id === wanted.paymentId)
  );
}
