/// <reference lib="esnext.disposable" preserve="true" />
// The public types of @payment-service/mock/testing: the test sandbox, its clock, webhooks, fixtures and snapshots.
import type { components } from '@payment-service/openapi';
import type { PaymentServiceClient, WebhookEvent, WebhookEventType } from '@payment-service/sdk';
import type { MockServer } from '../app/mock-server.js';
import type { SandboxControls, SandboxFaults, WebhookDelivery } from '../controls.js';
import type { TokenBehaviour } from '../domain/tokens.js';
import type { SandboxDuration } from './clock.js';

/** A payment as the API returns it. */
export type Payment = components['schemas']['Payment'];
/** A payment's status, such as `SUCCEEDED`. */
export type PaymentStatus = components['schemas']['PaymentStatus'];

/** A fetch-shaped handler: `(Request) => Response`, such as a Hono app's `fetch`. */
export type WebhookHandler = (request: Request) => Response | Promise<Response>;

/** Options of `createTestSandbox`; every one is optional. */
export interface TestSandboxOptions {
  /**
   * Makes the API key, every id (`pay_`, `evt_`, `we_`, `ref_`), signing secret and random
   * choice (retry jitter, the `chaos` delivery order) repeatable. A random one by default, shown
   * as `sandbox.randomSeed`: pass it back to run a failing test the same way again.
   */
  seed?: string | number;
  /** The sandbox clock's first instant (a `Date` or epoch ms). Default 2026-01-01T00:00:00Z. */
  start?: Date | number;
  /** The base URL the sandbox's `client` and `controls` use. Default `http://sandbox.test`. */
  baseUrl?: string;
  /** Pending test tokens settle this long after creation, on the sandbox clock. Default 5. */
  settlementDelaySeconds?: number;
  /** Extra test tokens, `{ tok_test_…: { description, outcome, pending? } }`. */
  extraTokens?: Record<string, TokenBehaviour>;
  /**
   * `in-order` (the default): each event goes out when its change happens. `chaos`: like a real
   * provider at its worst, about half of the events are held back (1 to 30 s of sandbox time, so
   * a later event can arrive first) and about half are sent twice, chosen by the seed.
   */
  webhookDelivery?: 'in-order' | 'chaos';
  /** How long one webhook attempt (your handler's answer) may take, in real ms. Default 10 000. */
  webhookTimeoutMs?: number;
}

/** The sandbox's manual clock: nothing moves until a test moves it. */
export interface TestSandboxClock {
  /** The sandbox's time now. */
  now(): Date;
  /**
   * Moves the clock forward by a length of time with its unit named (`{ seconds: 5 }`,
   * `{ minutes: 2 }`, `{ ms: 250 }`; a plain number is milliseconds, as before), stopping at every
   * settlement and webhook attempt that falls due on the way (in order, each at its own time, as
   * fake timers do), and resolves once each one has run and your handlers have answered.
   *
   * @example
   * await sandbox.clock.advance({ seconds: 5 }); // the /_sandbox/clock/advance control's { seconds: 5 }
   */
  advance(by: SandboxDuration): Promise<void>;
  /** Moves the clock forward to `date`, as `advance` does. The clock never moves back. */
  set(date: Date | number): Promise<void>;
}

/** Options of `sandbox.webhooks.deliverTo`. */
export interface DeliverToOptions {
  /**
   * The endpoint's URL: the request your handler gets is made to it, so its path must be your
   * webhook route. Default `http://localhost/webhooks`.
   */
  url?: string;
  /** Only these event types. Default: all. */
  events?: WebhookEventType[];
  /**
   * An endpoint the key already has (`we_…`, such as one a snapshot restored): its deliveries
   * go to `handler`, signed with its own secret, and nothing new is registered (`url` and
   * `events` are the endpoint's).
   */
  endpoint?: string;
}

/** An endpoint that delivers to a handler in process. */
export interface InProcessEndpoint {
  /** The endpoint's id, `we_…`. */
  id: string;
  url: string;
  /** The `whsec_…` secret your handler verifies deliveries with. */
  secret: string;
}

/** Which deliveries `sandbox.webhooks.next` takes. */
export interface NextEventFilter {
  /** Only events of this type. */
  type?: WebhookEventType;
  /** Only events of this payment. */
  paymentId?: string;
}

/** Options of `sandbox.webhooks.next`: which delivery it waits for, and how long. */
export interface NextEventOptions extends NextEventFilter {
  /**
   * Which attempts count. `'accepted'` (the default): one your handler answered 2xx, "the
   * webhook was handled", so a 500 and its retry's 204 give the event once, after the 204.
   * `'any'`: any attempt that reached your handler, whatever it answered (a 500, a throw, no
   * answer in time).
   *
   * @example
   * const failed = sandbox.webhooks.next({ type: 'payment.succeeded', answer: 'any' });
   */
  answer?: 'accepted' | 'any';
  /**
   * A bound on the **sandbox** clock: the delivery must be made within this length of sandbox
   * time from the call (`{ seconds: 30 }`, `{ minutes: 2 }`; a number is ms). Once the clock
   * passes it (`clock.advance`), the waiter rejects. Default: no bound on the sandbox clock.
   *
   * @example
   * const retried = sandbox.webhooks.next({ type: 'payment.succeeded', within: { minutes: 1 } });
   * await sandbox.clock.advance({ hours: 1 });
   * await retried; // rejects unless a 2xx delivery came by one minute of sandbox time
   */
  within?: SandboxDuration;
  /**
   * A bound in **real** milliseconds: once awaited, the waiter rejects when the sandbox stayed
   * idle this long (no request to it, no clock move, no attempt in flight or due now). Deliveries
   * and retries are due on the sandbox clock, which real time does not move: the error says what
   * is due, to advance the clock to. `0` gives up as soon as the sandbox is idle (the event was
   * due already). Raise it when something outside the test's `await`s makes the request (a
   * browser, a queue worker). Default 2 000.
   *
   * @example
   * await expect(sandbox.webhooks.next({ type: 'payment.failed', timeout: 0 })).rejects.toThrow('no such event');
   */
  timeout?: number;
}

/** One delivery attempt to a handler, as the sandbox's log keeps it (oldest first here). */
export type TestWebhookDelivery = WebhookDelivery;

/** Webhooks into your handlers, in process. */
export interface TestSandboxWebhooks {
  /**
   * Registers an endpoint whose deliveries go to `handler` in process, signed per Standard
   * Webhooks with the returned `secret`. Your handler's answer counts: a non-2xx is retried on
   * the sandbox clock, a 410 disables the endpoint.
   */
  deliverTo(handler: WebhookHandler, options?: DeliverToOptions): Promise<InProcessEndpoint>;
  /**
   * Waits for the next delivery that matches and that your handler accepted (2xx; `answer:
   * 'any'` takes any attempt), and resolves with its event, verified with its endpoint's secret
   * by the SDK's `webhooks.verify`. Call it before the action (as Playwright's `waitForEvent` or
   * Node's `events.once`) or after it: it takes the oldest delivery not taken yet, one made
   * before the call too, and each delivery is taken once (a duplicated event comes once per
   * delivery). It gives up, saying what was delivered and what is due on the sandbox clock, once
   * the clock passes `within`, once it was awaited and the sandbox stayed idle for `timeout` real
   * ms (2 000), or when the sandbox closes. It never rejects unobserved: a waiter that gave up
   * before it was awaited rejects only when awaited, and bad options reject the same way.
   *
   * @example
   * const handled = sandbox.webhooks.next({ type: 'payment.succeeded', paymentId: payment.id });
   * await sandbox.clock.advance({ seconds: 5 }); // the settlement, and its delivery
   * const event = await handled; // after your handler answered 2xx
   */
  next(options?: NextEventOptions): Promise<WebhookEvent>;
  /** Every attempt so far, oldest first: event, endpoint, status or error, next retry. */
  deliveries(): Promise<TestWebhookDelivery[]>;
  /** Sends an event again to every endpoint that takes it, and waits for the answers. */
  replay(eventId: string): Promise<void>;
  /** Resolves once no attempt is in flight and none is due now on the sandbox clock. */
  settled(): Promise<void>;
}

/**
 * A payment to load with `sandbox.seed()`, in the spec's words. `status`, `amount` and `currency`
 * are required; the rest follow from the status (a `SUCCEEDED` one is captured in full, a
 * `REFUNDED` one refunded in full, a `FAILED` one declined with `card_declined`, …).
 */
export interface PaymentFixture {
  id?: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  capture?: boolean;
  description?: string | null;
  /** `YYYY-MM-DDThh:mm:ssZ`. Default: the sandbox's now. */
  created_at?: string;
  amount_captured?: number;
  amount_refunded?: number;
  failure_code?: string | null;
  failure_message?: string | null;
  /** A `PENDING` payment's test token, which decides how it settles. Default `tok_test_pending`. */
  token?: string;
}

/** What `sandbox.seed` loads. */
export interface SandboxFixtures {
  payments?: PaymentFixture[];
}

/** The version of the snapshots this package writes; it also reads version 1. */
export const SNAPSHOT_VERSION = 2;

/** One payment of a snapshot. Times are ISO 8601 with milliseconds, on the sandbox clock. */
export interface SnapshotPayment {
  payment: Payment;
  token: string;
  /** When a PENDING payment settles; null for any other status. */
  settles_at: string | null;
  timeline: { at: string; change: string; status: PaymentStatus; amount: number }[];
}

/** A stored Idempotency-Key answer, replayed byte for byte after a restore. */
export interface SnapshotIdempotencyRecord {
  key: string;
  method: string;
  path: string;
  body_fingerprint: string;
  response: {
    status: number;
    headers: Record<string, string>;
    /**
     * The answer's body. An endpoint registration's `secret` is written `whsec_***` here, its key
     * bytes in `signing_key_base64`, and put back on restore.
     */
    body: string;
    /** Only for an endpoint registration: its signing key (base64), which the body shows masked. */
    signing_key_base64?: string;
  };
  expires_at: string;
}

/**
 * A webhook endpoint with its signing key. `signing_key_base64` is the key the endpoint signs
 * with (the bytes of its `whsec_` secret, never the `whsec_` text itself): a restored endpoint
 * signs as before, so handlers verify with the secret they already have. Keep snapshots as you
 * keep test secrets; `console.log` and `util.inspect` show the key as `[hidden]`.
 */
export interface SnapshotWebhookEndpoint {
  endpoint: components['schemas']['WebhookEndpoint'];
  signing_key_base64: string;
}

/** A delivery attempt waiting on the sandbox clock. */
export interface SnapshotQueuedDelivery {
  /** One of the snapshot's `events`. */
  event_id: string;
  /** One of the snapshot's `webhook_endpoints`. */
  endpoint_id: string;
  /** 1 for a first attempt, 2 for its first retry, and so on. */
  attempt: number;
  /** On the sandbox clock. */
  due_at: string;
}

/**
 * A key's whole state as JSON: never its API key, nor a `whsec_` secret (endpoints keep their
 * signing keys in `signing_key_base64`). Times are ISO 8601 with milliseconds, on the sandbox
 * clock.
 */
export interface SandboxSnapshot {
  format: 'payment-service-mock.sandbox-snapshot';
  version: typeof SNAPSHOT_VERSION;
  /** The sandbox clock's time. */
  clock: string;
  /** How far the key's clock runs ahead of the sandbox's own (the controls' clock advance). */
  clock_offset_seconds: number;
  faults: SandboxFaults;
  payments: SnapshotPayment[];
  idempotency_records: SnapshotIdempotencyRecord[];
  webhook_endpoints: SnapshotWebhookEndpoint[];
  /** Oldest first: the events kept for redelivery, and those queued attempts still send. */
  events: components['schemas']['Event'][];
  /** The delivery log, oldest first. */
  webhook_deliveries: WebhookDelivery[];
  /** Attempts waiting on the sandbox clock (retries, held-back events), earliest first. */
  queued_deliveries: SnapshotQueuedDelivery[];
}

/** Where `sandbox.listen()` serves the sandbox over HTTP. */
export interface ListeningSandbox {
  /** The base URL, such as `http://127.0.0.1:53211`. */
  url: string;
  close(): Promise<void>;
}

/** The event types `sandbox.trigger` can cause. */
export type TriggerableEvent = WebhookEventType;

/** What `sandbox.trigger` creates the payment with. */
export interface TriggerParams {
  amount?: number;
  currency?: string;
  description?: string;
}

/** One fresh sandbox key in process: its client, controls, clock, webhooks and fixtures. */
export interface TestSandbox extends AsyncDisposable {
  /** The seed every id and random choice comes from: pass it as `seed` to repeat a run. */
  readonly randomSeed: string;
  /** The sandbox's `sk_test_` key: give it to your app's client. */
  readonly apiKey: string;
  /** The base URL the client and controls use (any URL works in process). */
  readonly baseUrl: string;
  /** An SDK client on the sandbox's key, in process. */
  readonly client: PaymentServiceClient;
  /** The sandbox controls (faults, clock offset, deliveries, inspector) of the key. */
  readonly controls: SandboxControls;
  /** The sandbox in process, with no port: pass it as your client's `fetch`. */
  readonly fetch: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /** The sandbox's Hono app, to mount in your own app. */
  readonly app: MockServer['app'];
  readonly clock: TestSandboxClock;
  readonly webhooks: TestSandboxWebhooks;
  /** Serves the sandbox over HTTP on 127.0.0.1 and a free port, for code that needs a URL. */
  listen(): Promise<ListeningSandbox>;
  /** Creates whatever leads to the event, waits for its deliveries, returns the payment. */
  trigger(type: TriggerableEvent, params?: TriggerParams): Promise<Payment>;
  /** Loads fixtures (checked against the spec; an error lists every problem). */
  seed(fixtures: SandboxFixtures): Promise<Payment[]>;
  /**
   * The key's whole state as versioned JSON: payments, idempotency records, endpoints (with
   * their signing keys), events, the delivery log, queued attempts, faults and the clock. Take it
   * once `webhooks.settled()` resolved: an attempt in flight is not in it.
   */
  snapshot(): SandboxSnapshot;
  /**
   * Replaces the key's state with a snapshot's, after checking every value as the API would: a
   * `SandboxFixtureError` lists every problem by path, and a refused snapshot changes nothing.
   * Reads version 1 snapshots too (they hold no webhooks: endpoints from `deliverTo` stay).
   */
  restore(snapshot: SandboxSnapshot): Promise<void>;
  /** Deletes the key's data and the deliveries seen; the clock and `deliverTo` endpoints stay. */
  reset(): Promise<void>;
  /** Stops every timer, closes `listen()`'s server; the sandbox cannot be used after. */
  close(): Promise<void>;
}
