// A webhook receiver on node:http: keeps the deliveries that verify with the endpoint's secret (webhooks.verify), counts and refuses the rest, within fixed bounds.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookSecret } from '../webhooks/signature.js';
import type { WebhookEvent } from '../webhooks/types.js';
import { verifyWebhook } from '../webhooks/verify.js';

/** The largest delivery body read, by default: larger ones are answered 413 and counted as refused. */
export const DEFAULT_MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** How many verified deliveries are kept, by default; later ones are still verified and answered. */
export const DEFAULT_MAX_KEPT_WEBHOOKS = 10_000;

/** One delivery that verified with the secret. */
export interface ReceivedWebhook {
  /** The `webhook-id` header: the event id, the key to deduplicate on. */
  readonly webhookId: string;
  /** The request's headers (names in lower case). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as received. */
  readonly rawBody: string;
  /** The verified event (its fields beyond `id`, `type` and `data` are as the sender sent them). */
  readonly event: WebhookEvent;
  /** The status answered, or `undefined` while `answer` withholds the answer (`'hang'`). */
  readonly answeredWith: number | undefined;
}

/** The deliveries a receiver refused (unsigned, badly signed, too large): counted, never kept. */
export interface RefusedWebhooks {
  readonly count: number;
  /** Why the first one was refused (the verification error's message, which never holds a secret). */
  readonly firstReason: string | undefined;
}

/**
 * How to answer a verified delivery: a status, or `'hang'` to never answer (to test a sender's
 * timeouts). `index` counts the verified deliveries before this one.
 */
export type WebhookAnswer = (
  delivery: Omit<ReceivedWebhook, 'answeredWith'>,
  index: number,
) => number | 'hang';

/** Options of {@link startWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The endpoint's `whsec_…` secret; can also be set later as `receiver.secret` (after registering). */
  secret?: WebhookSecret;
  /** The address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The port to listen on; 0 (the default) takes a free one. */
  port?: number;
  /** The path shown in `url` (every path is answered). Default `/webhooks`. */
  path?: string;
  /** The URL to show as `url` when deliveries arrive through a tunnel or proxy. */
  publicUrl?: string;
  /** The answer to each verified delivery. Default 204. Unverified ones are always answered 400. */
  answer?: WebhookAnswer;
  /** The largest body read, in bytes. Default {@link DEFAULT_MAX_WEBHOOK_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** How many verified deliveries `received` keeps. Default {@link DEFAULT_MAX_KEPT_WEBHOOKS}. */
  maxKept?: number;
  /** Passed to `webhooks.verify`: how far `webhook-timestamp` may be from now. Default 300 s. */
  toleranceSeconds?: number;
  /** Passed to `webhooks.verify`: the time now, for a sender on a simulated clock. Default `Date.now()`. */
  now?: () => Date | number;
}

/** A running receiver, as returned by {@link startWebhookReceiver}. */
export interface WebhookReceiver {
  /** The URL to register as the endpoint's (the public one, when given). */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The secret deliveries are verified with; set it once the endpoint is registered. */
  secret: WebhookSecret | undefined;
  /** The verified deliveries, oldest first: the first `maxKept` of them. */
  readonly received: readonly ReceivedWebhook[];
  /** How many deliveries verified, counting those past `maxKept`. */
  readonly verifiedCount: number;
  /** The deliveries that did not verify: answered 400 (413 when too large), counted, not kept. */
  readonly refused: RefusedWebhooks;
  /** The kept events answered with a 2xx, deduplicated on `webhook-id`, in arrival order. */
  events(): WebhookEvent[];
  /** Resolves `true` once `predicate` holds (checked now and after each delivery), `false` after `timeoutMs` (default 5000). */
  waitUntil(predicate: () => boolean, timeoutMs?: number): Promise<boolean>;
  /**
   * Resolves with `received` once it holds `condition` deliveries (or `condition()` holds), and
   * rejects after `timeoutMs` (default 5000) with an error that lists what did arrive.
   */
  waitFor(
    condition: number | (() => boolean),
    timeoutMs?: number,
  ): Promise<readonly ReceivedWebhook[]>;
  /** Stops listening (connections are refused) until `reopen()`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
  /** Stops listening for good. */
  close(): Promise<void>;
}

/**
 * Starts a webhook receiver on node:http that verifies each delivery with `webhooks.verify`,
 * reading the raw body: for local development, tests, and contract runs. Bounded: bodies past
 * `maxBodyBytes` are refused unread, and at most `maxKept` verified deliveries are kept (later
 * ones are still verified and answered, never refused). Node only: import it from
 * `@payment-service/sdk/node`.
 *
 * @example
 * import { startWebhookReceiver } from '@payment-service/sdk/node';
 *
 * const receiver = await startWebhookReceiver();
 * const endpoint = await client.webhookEndpoints.create({ url: receiver.url });
 * receiver.secret = endpoint.secret;
 * await client.payments.create(params);
 * await receiver.waitFor(1);
 * receiver.events()[0]?.type; // 'payment.succeeded'
 * await receiver.close();
 */
export async function startWebhookReceiver(
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BODY_BYTES;
  const maxKept = options.maxKept ?? DEFAULT_MAX_KEPT_WEBHOOKS;
  const received: ReceivedWebhook[] = [];
  const refused = { count: 0, firstReason: undefined as string | undefined };
  let verifiedCount = 0;
  /** Checks of pending waits, run after each delivery. */
  const waiters = new Set<() => void>();
  let port = options.port ?? 0;
  let server: Server | undefined;

  const notify = () => {
    for (const check of waiters) check();
  };
  const refuse = (reason: string) => {
    refused.count += 1;
    refused.firstReason ??= reason;
  };
  const verify = async (rawBody: string, headers: Record<string, string>) => {
    if (receiver.secret === undefined) {
      throw new Error('no secret to verify with: pass secret, or set receiver.secret');
    }
    const { toleranceSeconds, now } = options;
    return verifyWebhook(rawBody, headers, receiver.secret, {
      ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      ...(now === undefined ? {} : { now }),
    });
  };
  const deliver = async (rawBody: string, headers: Record<string, string>, reply: Reply) => {
    let event: WebhookEvent;
    try {
      event = await verify(rawBody, headers);
    } catch (error) {
      refuse(error instanceof Error ? error.message : String(error));
      return reply(400);
    }
    const delivery = { webhookId: headers['webhook-id'] ?? '', headers, rawBody, event };
    const answer = options.answer?.(delivery, verifiedCount) ?? 204;
    verifiedCount += 1;
    if (received.length < maxKept) {
      received.push({ ...delivery, answeredWith: answer === 'hang' ? undefined : answer });
    }
    if (answer !== 'hang') reply(answer);
    else notify();
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number) => {
      response.writeHead(status).end();
      notify();
    };
    readBoundedBody(request, maxBodyBytes).then(
      (rawBody) => {
        if (rawBody === undefined) {
          refuse(`a body over ${maxBodyBytes} bytes`);
          return reply(413);
        }
        return deliver(rawBody, stringHeaders(request), reply).catch((error: unknown) => {
          refuse(`the receiver failed: ${String(error)}`);
          reply(500);
        });
      },
      () => response.destroy(),
    );
  };

  const listen = async () => {
    const listening = createServer(handle);
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, host, () => resolve());
    });
    server = listening;
    port = (listening.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const closing = server;
      server = undefined;
      if (closing === undefined) return resolve();
      closing.closeAllConnections();
      closing.close(() => resolve());
    });

  await listen();
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  const receiver: WebhookReceiver = {
    url: options.publicUrl ?? `http://${hostInUrl}:${port}${options.path ?? '/webhooks'}`,
    port,
    secret: options.secret,
    received,
    get verifiedCount() {
      return verifiedCount;
    },
    refused,
    events() {
      const seen = new Set<string>();
      const events: WebhookEvent[] = [];
      for (const { answeredWith, webhookId, event } of received) {
        const acknowledged =
          answeredWith !== undefined && answeredWith >= 200 && answeredWith < 300;
        if (!acknowledged || seen.has(webhookId)) continue;
        seen.add(webhookId);
        events.push(event);
      }
      return events;
    },
    waitUntil: (predicate, timeoutMs = 5000) => waitFor(waiters, predicate, timeoutMs),
    async waitFor(condition, timeoutMs = 5000) {
      const predicate =
        typeof condition === 'number' ? () => received.length >= condition : condition;
      if (await waitFor(waiters, predicate, timeoutMs)) return received;
      const wanted = typeof condition === 'number' ? `${condition} deliveries` : 'the condition';
      const seen = received
        .slice(0, 20)
        .map((delivery) => `${delivery.event.type}→${delivery.answeredWith ?? 'no answer'}`);
      throw new Error(
        `webhook receiver: ${wanted} not met within ${timeoutMs} ms; ${verifiedCount} verified (${seen.join(', ') || 'none'}), ${refused.count} refused${refused.firstReason === undefined ? '' : ` (first: ${refused.firstReason})`}`,
      );
    },
    stop,
    reopen: listen,
    close: stop,
  };
  return receiver;
}

type Reply = (status: number) => void;

/** Resolves true once `predicate` holds (a predicate that throws does not hold), false after `timeoutMs`. */
function waitFor(
  waiters: Set<() => void>,
  predicate: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const holds = () => {
    try {
      return predicate();
    } catch {
      return false;
    }
  };
  if (holds()) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const check = () => {
      if (!holds()) return;
      waiters.delete(check);
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      resolve(false);
    }, timeoutMs);
    waiters.add(check);
  });
}

/** The body as UTF-8 text, or undefined once it passes `maxBytes` (the rest is read and dropped). */
function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on('end', () =>
      resolve(size > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    request.on('error', reject);
  });
}

/** The request's headers that have one string value (all but `set-cookie`), names in lower case. */
function stringHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}
