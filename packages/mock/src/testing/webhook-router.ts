// Delivers webhook attempts to merchants' handlers in process: finds the endpoint by URL and signature, signs with real time, records the events.
import { type WebhookEvent, webhooks } from '@payment-service/sdk';
import { parseSigningSecret, signMessage } from '../webhooks/signing.js';
import type { WebhookHandler } from './types.js';

/** An endpoint whose deliveries go to a handler. */
interface Route {
  url: string;
  secret: string;
  key: Uint8Array;
  handler: WebhookHandler;
}

/** One delivery a handler got: the verified event, and the handler's answer. */
export interface HandledDelivery {
  event: WebhookEvent;
  /** The handler's status, or what it threw. */
  answer: number | string;
  /** Whether the handler accepted it: a 2xx status. */
  accepted: boolean;
  /** When it was made, on the sandbox clock (ms epoch). */
  at: number;
  /** Whether a `next()` waiter took it. */
  taken: boolean;
}

/** What the router tells its sandbox: each attempt's start and end, each delivery made. */
export interface RouterHooks {
  /** The sandbox clock (ms epoch), to date deliveries. */
  now(): number;
  /** An attempt started or ended: the sandbox is busy. */
  activity(): void;
  /** A handler answered (or threw): the delivery is in `handled` already. */
  delivered(delivery: HandledDelivery): void;
}

/**
 * The webhook `fetch` of a test sandbox: each attempt goes to the handler registered for its
 * URL (several may share a URL: the signature tells which endpoint it is for), signed again with
 * the real time (so a handler's `webhooks.verify` accepts its timestamp while the sandbox clock
 * is elsewhere), and its event is recorded for `next()`.
 *
 * @example
 * const router = new WebhookRouter({ now: Date.now, activity() {}, delivered: (d) => waiters.delivered(d) });
 * createRuntime({ webhookFetch: router.fetch });
 * router.add('http://localhost/webhooks', 'whsec_…', app.fetch);
 */
export class WebhookRouter {
  private readonly table: Route[] = [];
  readonly handled: HandledDelivery[] = [];

  constructor(private readonly hooks: RouterHooks) {}

  /** How many endpoints deliver to a handler here. */
  get size(): number {
    return this.table.length;
  }

  /** Sends attempts to `handler` when they are for `url` and signed with `secret`. */
  add(url: string, secret: string, handler: WebhookHandler): void {
    const parsed = parseSigningSecret(secret);
    if (parsed === undefined) throw new TypeError('the endpoint secret must be whsec_<base64>');
    this.table.push({ url, secret, key: parsed.key, handler });
  }

  /** Whether attempts signed with `key` go to a handler here (kept across a reset or restore). */
  routes(key: Uint8Array): boolean {
    return this.table.some((route) => Buffer.compare(route.key, key) === 0);
  }

  /** The attempts in the order the dispatcher started them, one at a time. */
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * The dispatcher's fetch. Attempts reach the handlers one at a time, in the order they were
   * made (verification runs on Web Crypto's threads, whose answers come in any order), so the
   * same seed delivers in the same order.
   */
  readonly fetch = (url: string, init: RequestInit): Promise<Response> => {
    this.hooks.activity();
    const attempt = this.turn.then(() => this.deliver(url, init));
    void attempt.then(
      () => this.hooks.activity(),
      () => this.hooks.activity(),
    );
    this.turn = attempt.catch(() => undefined);
    return attempt;
  };

  private async deliver(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const body = String(init.body ?? '');
    const id = headers.get('webhook-id') ?? '';
    const timestamp = Number(headers.get('webhook-timestamp'));
    const signature = headers.get('webhook-signature');
    const route = this.table.find(
      (candidate) =>
        candidate.url === url && signMessage(candidate.key, id, timestamp, body) === signature,
    );
    if (route === undefined) {
      const reason = `no handler receives ${url}: register one with sandbox.webhooks.deliverTo(handler, { url })`;
      throw new TypeError('fetch failed', { cause: new Error(reason) });
    }
    const now = Math.floor(Date.now() / 1000);
    headers.set('webhook-timestamp', String(now));
    headers.set('webhook-signature', signMessage(route.key, id, now, body));
    const event = await webhooks.verify(body, headers, route.secret);
    const request = new Request(url, {
      method: 'POST',
      headers,
      body,
      signal: init.signal ?? null,
    });
    try {
      const response = await answerOf(route.handler, request, init.signal);
      this.record(event, response.status);
      return response;
    } catch (error) {
      this.record(event, describe(error));
      throw error;
    }
  }

  private record(event: WebhookEvent, answer: number | string): void {
    const accepted = typeof answer === 'number' && answer >= 200 && answer < 300;
    const delivery = { event, answer, accepted, at: this.hooks.now(), taken: false };
    this.handled.push(delivery);
    this.hooks.delivered(delivery);
  }

  /** Forgets the deliveries seen (the routes stay). */
  clear(): void {
    this.handled.length = 0;
  }
}

/** The handler's answer, or a rejection once the dispatcher gives up on the attempt. */
function answerOf(
  handler: WebhookHandler,
  request: Request,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  const answer = Promise.resolve().then(() => handler(request));
  if (signal === null || signal === undefined) return answer;
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
