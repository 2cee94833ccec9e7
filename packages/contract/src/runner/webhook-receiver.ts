// The webhook receiver a run starts: keeps only the deliveries that verify with the endpoint's secret (SDK `webhooks.verify`), counts and refuses the rest.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEvent, webhooks } from '@payment-service/sdk';
import { cleanTargetText } from '../untrusted-text.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** One verified delivery. */
export interface ReceivedDelivery {
  webhookId: string;
  headers: Record<string, string>;
  rawBody: string;
  /**
   * The event, when it is well formed (`data.object` a payment with an id); undefined when the
   * signature verified but the event is not (`malformed` says why, cleaned).
   */
  event: WebhookEvent | undefined;
  malformed: string | undefined;
}

/** The deliveries a receiver refused (unsigned, badly signed, too large): counted, never kept. */
export interface RefusedDeliveries {
  count: number;
  /** Why the first one was refused (cleaned). */
  firstReason: string | undefined;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** The URL endpoints are registered with (the public one, when given). */
  readonly url: string;
  /** The signing secret deliveries are verified with; set after registering the endpoint. */
  secret: string | undefined;
  /** Every verified delivery, oldest first (the first 10 000 are kept; none is ever refused). */
  readonly received: readonly ReceivedDelivery[];
  /** The deliveries that did not verify: answered 400 and counted, nothing else kept. */
  readonly refused: Readonly<RefusedDeliveries>;
  /** Resolves true once `predicate` holds (checked now and after each delivery), false after `timeoutMs`. */
  waitUntil(predicate: () => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Options of `startWebhookReceiver`. */
export interface WebhookReceiverOptions {
  /** The URL the target delivers to. With port 0 on a loopback host, the receiver picks a free port and the URL follows it. */
  url: string;
  /** Where to listen, `[host:]port`; default: the URL's own host and port when it is a loopback URL. */
  listen?: string;
}

/** Verified deliveries kept in memory; later ones are still answered 2xx (only the target can sign them). */
const MAX_KEPT = 10_000;
const MAX_BODY = 256 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where to listen for a given URL and `--webhook-listen`, or an error message.
 *
 * @example
 * listenAddress(new URL('https://abc.tunnel.example/hooks'), '8080'); // { host: '127.0.0.1', port: 8080 }
 */
export function listenAddress(
  url: URL,
  listen: string | undefined,
): { host: string; port: number } | string {
  if (listen !== undefined) {
    const match = /^(?:([^:]+|\[[^\]]+\]):)?(\d{1,5})$/.exec(listen);
    const port = Number(match?.[2]);
    if (!match || port > 65535) return `--webhook-listen must be [host:]port, not ${listen}`;
    return { host: match[1] ?? '127.0.0.1', port };
  }
  if (!LOOPBACK.has(url.hostname)) {
    return `--webhook-url ${url.origin} is not on this machine: say where the receiver listens with --webhook-listen [host:]port (a tunnel's local end)`;
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  };
}

/**
 * Starts a receiver that verifies each delivery with `webhooks.verify` from the SDK, reading the raw body.
 *
 * @example
 * const receiver = await startWebhookReceiver({ url: 'http://127.0.0.1:0/webhooks' });
 * receiver.url; // 'http://127.0.0.1:43121/webhooks'
 */
export async function startWebhookReceiver(
  options: WebhookReceiverOptions,
): Promise<WebhookReceiver> {
  const url = new URL(options.url);
  const address = listenAddress(url, options.listen);
  if (typeof address === 'string') throw new Error(address);
  const received: ReceivedDelivery[] = [];
  const refused: RefusedDeliveries = { count: 0, firstReason: undefined };
  const waiters = new Set<() => void>();
  const refuse = (reason: string) => {
    refused.count += 1;
    refused.firstReason ??= cleanTargetText(reason, 200);
  };
  const handle = async (rawBody: string, headers: Record<string, string>) => {
    let event: WebhookEvent;
    try {
      event = await webhooks.verify(rawBody, headers, receiver.secret ?? '');
    } catch (error) {
      refuse(error instanceof Error ? error.message : String(error));
      return 400;
    }
    if (received.length < MAX_KEPT) {
      const malformed = malformedEvent(event);
      received.push({
        webhookId: cleanTargetText(headers['webhook-id'] ?? '', 200),
        headers,
        rawBody,
        event: malformed ? undefined : event,
        malformed: malformed && cleanTargetText(malformed, 200),
      });
    }
    return 204;
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      if (size > MAX_BODY) refuse(`a body over ${MAX_BODY} bytes`);
      const status =
        size > MAX_BODY
          ? Promise.resolve(413)
          : handle(Buffer.concat(chunks).toString('utf8'), headers).catch((error: unknown) => {
              refuse(`the receiver failed: ${String(error)}`);
              return 500;
            });
      void status.then((code) => {
        response.writeHead(code).end();
        if (code !== 204) return;
        for (const check of waiters) check();
      });
    });
    request.on('error', () => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  if (LOOPBACK.has(url.hostname) && url.port === '0') url.port = String(port);

  const receiver: WebhookReceiver = {
    url: url.href,
    secret: undefined,
    received,
    refused,
    waitUntil(predicate, timeoutMs) {
      // A predicate that throws (on an event no check foresaw) is one that does not hold.
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
        // An upper bound on how long a target may take to deliver, not a wait for something to happen.
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve(false);
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/**
 * Why a verified event is not one the checks can read (no `data.object` with a string `id`, or
 * nested past the limit), or undefined when it is well formed.
 *
 * @example
 * malformedEvent({ id: 'evt_1', type: 'payment.succeeded', data: {} }); // 'data.object is not an object with an id'
 */
export function malformedEvent(event: unknown): string | undefined {
  if (event === null || typeof event !== 'object') return 'the event is not an object';
  if (nestsDeeperThan(event, MAX_JSON_DEPTH))
    return `the event nests deeper than ${MAX_JSON_DEPTH} levels`;
  const { type, data } = event as { type?: unknown; data?: unknown };
  if (typeof type !== 'string') return 'type is not a string';
  const object = (data as { object?: unknown } | null | undefined)?.object;
  if (object === null || typeof object !== 'object' || Array.isArray(object))
    return 'data.object is not an object with an id';
  if (typeof (object as { id?: unknown }).id !== 'string')
    return 'data.object is not an object with an id';
  return undefined;
}
