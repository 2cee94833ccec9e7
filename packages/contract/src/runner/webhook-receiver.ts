// The webhook receiver a run starts: records every delivery (bounded) and verifies its signature with the SDK, as a merchant's handler would.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEvent, webhooks } from '@payment-service/sdk';

/** One delivery attempt as the receiver saw it. */
export interface ReceivedDelivery {
  webhookId: string;
  headers: Record<string, string>;
  rawBody: string;
  /** The verified event, or undefined when verification failed (`verificationError` says why). */
  event: WebhookEvent | undefined;
  verificationError: string | undefined;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** The URL endpoints are registered with (the public one, when given). */
  readonly url: string;
  /** The signing secret deliveries are verified with; set after registering the endpoint. */
  secret: string | undefined;
  /** Every delivery received, oldest first (at most 1 000). */
  readonly received: readonly ReceivedDelivery[];
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

const MAX_DELIVERIES = 1000;
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
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', async () => {
      if (size > MAX_BODY || received.length >= MAX_DELIVERIES) {
        response.writeHead(413).end();
        return;
      }
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      let event: WebhookEvent | undefined;
      let verificationError: string | undefined;
      try {
        event = await webhooks.verify(rawBody, request.headers, receiver.secret ?? '');
      } catch (error) {
        verificationError = error instanceof Error ? error.message : String(error);
      }
      received.push({
        webhookId: headers['webhook-id'] ?? '',
        headers,
        rawBody,
        event,
        verificationError,
      });
      response.writeHead(event ? 204 : 400).end();
      for (const check of waiters) check();
    });
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
    waitUntil(predicate, timeoutMs) {
      if (predicate()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const check = () => {
          if (!predicate()) return;
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
