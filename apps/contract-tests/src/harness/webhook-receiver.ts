// A real node:http webhook receiver on an ephemeral 127.0.0.1 port: records every delivery and verifies it with the SDK.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEvent, webhooks } from '@payment-service/sdk';

/** One delivery attempt as the receiver saw it. */
export interface ReceivedWebhook {
  webhookId: string;
  headers: Record<string, string>;
  rawBody: string;
  /** The verified event, or undefined when verification failed (see `verificationError`). */
  event: WebhookEvent | undefined;
  verificationError: unknown;
  /** The status the receiver answered with. */
  answeredWith: number;
}

/** Options of `startWebhookReceiver`. */
export interface WebhookReceiverOptions {
  /** The status to answer each attempt with (default 204); `index` counts every attempt received. */
  answer?: (delivery: Omit<ReceivedWebhook, 'answeredWith'>, index: number) => number;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** The URL to register: `http://127.0.0.1:<port>/webhooks`. */
  readonly url: string;
  /** The endpoint's secret, set after registration; deliveries are verified with it. */
  secret: string | undefined;
  /** Every attempt received, in order. */
  readonly received: ReceivedWebhook[];
  /** The verified events acknowledged with a 2xx, deduplicated on `webhook-id`, in arrival order. */
  events(): WebhookEvent[];
  /** Resolves once `predicate` holds (checked now and after each delivery), or fails after `timeoutMs`. */
  waitUntil(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening (the port is refused) until `reopen()`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a webhook receiver that verifies each delivery with `webhooks.verify` from the SDK, as a
 * merchant's handler would, reading the raw body.
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * const endpoint = await client.webhookEndpoints.create({ url: receiver.url });
 * receiver.secret = endpoint.secret;
 * await client.payments.create(params);
 * await receiver.waitUntil(() => receiver.events().length === 1);
 */
export async function startWebhookReceiver(
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  /** Checks of pending `waitUntil` calls, run after each delivery. */
  const waiters = new Set<() => void>();
  let port = 0;
  let server: Server | undefined;

  const listen = async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      let event: WebhookEvent | undefined;
      let verificationError: unknown;
      try {
        event = await webhooks.verify(rawBody, request.headers, receiver.secret ?? '');
      } catch (error) {
        verificationError = error;
      }
      const delivery = {
        webhookId: headers['webhook-id'] ?? '',
        headers,
        rawBody,
        event,
        verificationError,
      };
      const status = options.answer?.(delivery, received.length) ?? (event ? 204 : 400);
      received.push({ ...delivery, answeredWith: status });
      for (const check of waiters) check();
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (server === undefined) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/webhooks`,
    secret: undefined,
    received,
    events() {
      const seen = new Set<string>();
      const events: WebhookEvent[] = [];
      for (const delivery of received) {
        const ok = delivery.answeredWith >= 200 && delivery.answeredWith < 300;
        if (!ok || delivery.event === undefined || seen.has(delivery.webhookId)) continue;
        seen.add(delivery.webhookId);
        events.push(delivery.event);
      }
      return events;
    },
    waitUntil(predicate, timeoutMs = 5000) {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `webhook receiver: condition not met within ${timeoutMs} ms; received ${received.length} attempt(s): ${received.map((delivery) => `${delivery.event?.type ?? 'unverified'}→${delivery.answeredWith}`).join(', ')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    stop,
    reopen: listen,
    close: stop,
  };
  return receiver;
}
