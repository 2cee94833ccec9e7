// Adapts a Node request listener (an Express app, a `node:http` handler) to the fetch shape `webhooks.deliverTo` takes.
import type { WebhookHandler } from './types.js';

/**
 * A Node request listener: `(request, response) => void`, such as an Express or Connect app, or
 * the handler you pass to `http.createServer`. Typed loosely, so that no `@types/node` is needed.
 */
export type NodeRequestListener = (request: never, response: never) => unknown;

/**
 * Wraps a Node request listener as a fetch-shaped handler, with no socket: each `Request` is
 * injected into the listener as an `IncomingMessage` and its `ServerResponse` comes back as a
 * `Response` (by light-my-request, Fastify's injector, loaded on first use).
 *
 * @example
 * const app = express();
 * app.post('/webhooks', express.raw({ type: 'application/json' }), handleWebhook);
 * await sandbox.webhooks.deliverTo(fromNodeHandler(app), { url: 'http://shop.test/webhooks' });
 */
export function fromNodeHandler(listener: NodeRequestListener): WebhookHandler {
  if (typeof listener !== 'function') {
    throw new TypeError(
      'fromNodeHandler(listener): listener must be a (request, response) function',
    );
  }
  return async (request) => {
    const { inject } = await import('light-my-request');
    const url = new URL(request.url);
    const injected = await inject(listener as Parameters<typeof inject>[0], {
      method: request.method as 'POST',
      url: `${url.pathname}${url.search}`,
      authority: url.host,
      headers: Object.fromEntries(request.headers),
      payload: Buffer.from(await request.arrayBuffer()),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(injected.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const empty = injected.statusCode === 204 || injected.statusCode === 304;
    const body = empty ? null : new Uint8Array(injected.rawPayload);
    return new Response(body, { status: injected.statusCode, headers });
  };
}
