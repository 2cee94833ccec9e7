// The run's webhook receiver: where the SDK's receiver listens for --webhook-url and --webhook-listen, and which verified events the checks can read.
import { startWebhookReceiver, type WebhookReceiver } from '@payment-service/sdk/node';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Options of `startRunReceiver`. */
export interface RunReceiverOptions {
  /** The URL the target delivers to. With port 0 on a loopback host, the receiver picks a free port and the URL follows it. */
  url: string;
  /** Where to listen, `[host:]port`; default: the URL's own host and port when it is a loopback URL. */
  listen?: string;
}

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
 * Starts the SDK's webhook receiver where `url` and `listen` say; its `url` is the one to register.
 *
 * @example
 * const receiver = await startRunReceiver({ url: 'http://127.0.0.1:0/webhooks' });
 * receiver.url; // 'http://127.0.0.1:43121/webhooks'
 */
export async function startRunReceiver(options: RunReceiverOptions): Promise<WebhookReceiver> {
  const url = new URL(options.url);
  const address = listenAddress(url, options.listen);
  if (typeof address === 'string') throw new Error(address);
  const local = options.listen === undefined;
  return startWebhookReceiver({
    host: address.host,
    port: address.port,
    path: `${url.pathname}${url.search}`,
    // A loopback URL is where the receiver listens (its port once chosen); another is a tunnel's.
    ...(local ? {} : { publicUrl: url.href }),
  });
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
