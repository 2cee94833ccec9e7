// The mock server factory: a Hono app with request ids, dispatch, 500 guard, logging and drops.
import { Hono } from 'hono';
import { type HandlerOutcome, problemResponse } from './http/respond.js';
import { createSandboxHandler } from './http/sandbox.js';
import { createV1Handler } from './http/v1.js';
import { newRequestId } from './ids.js';
import type { MockServerOptions } from './options.js';
import { createRuntime } from './runtime.js';
import { maskSecrets } from './secrets.js';

/** A running mock: call its `fetch` in process, or serve its Hono `app` over HTTP. */
export interface MockServer {
  /**
   * Handles a request in process, with no port. A dropped connection (the `drop_after_commit`
   * fault) rejects with `TypeError('fetch failed')`, as undici's fetch does.
   */
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** The Hono app, for `@hono/node-server` or any other runtime adapter. */
  readonly app: Hono;
  /** Stops every timer (injected latencies end at once). */
  close(): void;
}

/** Marks an in-process request whose connection must be dropped. */
interface InProcessBindings {
  inProcess: true;
  dropped: boolean;
}

/** What @hono/node-server passes as the app's environment. */
interface NodeBindings {
  incoming?: { socket?: { destroy(): void } | null };
}

/**
 * Creates a stateful mock of the payment API. Memory is bounded: at most `maxPaymentsPerKey`
 * payments per key and `maxPaymentsTotal` overall (the oldest are evicted first), and
 * idempotency records expire after `idempotencyTtlSeconds`, and at most 10 000 accounts are kept
 * (the least recently used is forgotten).
 *
 * @example
 * const mock = createMockServer({ settlementDelaySeconds: 1 });
 * const response = await mock.fetch('http://localhost/v1/payments', {
 *   method: 'POST',
 *   headers: { authorization: 'Bearer sk_test_12345678', 'content-type': 'application/json' },
 *   body: JSON.stringify({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } }),
 * });
 * response.status; // 201
 */
export function createMockServer(options: MockServerOptions = {}): MockServer {
  const runtime = createRuntime(options);
  const handleV1 = createV1Handler(runtime);
  const handleSandbox = createSandboxHandler(runtime);
  const logger = runtime.options.logger;

  const app = new Hono();
  app.all('*', async (c) => {
    const started = performance.now();
    const requestId = newRequestId();
    const request = c.req.raw;
    const path = pathOf(request.url);
    let outcome: HandlerOutcome;
    try {
      if (path.startsWith('/v1/')) outcome = await handleV1(request, path, requestId);
      else if (path.startsWith('/_sandbox/'))
        outcome = await handleSandbox(request, path, requestId);
      else {
        outcome = {
          response: problemResponse(
            {
              code: 'not_found',
              detail: 'No resource exists at this path; API paths begin with /v1.',
            },
            requestId,
          ),
        };
      }
    } catch {
      outcome = { response: internalError(requestId) };
    }
    if (outcome.drop) dropConnection(c.env as InProcessBindings | NodeBindings | undefined);
    if (logger !== undefined) {
      const status = outcome.drop ? 'dropped' : String(outcome.response.status);
      const elapsed = Math.round(performance.now() - started);
      logger(
        `${new Date().toISOString()} ${request.method} ${maskSecrets(path)} ${status} ${elapsed}ms ${requestId}`,
      );
    }
    return outcome.response;
  });
  app.onError(() => internalError(newRequestId()));

  return {
    app,
    async fetch(input, init) {
      const request =
        input instanceof Request && init === undefined
          ? input
          : new Request(
              typeof input === 'string' && input.startsWith('/')
                ? `http://localhost${input}`
                : input,
              init,
            );
      const bindings: InProcessBindings = { inProcess: true, dropped: false };
      const response = await app.fetch(request, bindings);
      if (bindings.dropped) {
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        });
      }
      return response;
    },
    close() {
      runtime.close();
    },
  };
}

function internalError(requestId: string): Response {
  return problemResponse(
    {
      code: 'internal_error',
      detail: 'The sandbox failed unexpectedly. Retrying with the same Idempotency-Key is safe.',
    },
    requestId,
  );
}

function dropConnection(bindings: InProcessBindings | NodeBindings | undefined): void {
  if (bindings === undefined) return;
  if ('inProcess' in bindings) bindings.dropped = true;
  else bindings.incoming?.socket?.destroy();
}

/** The path of an absolute URL, without query or fragment. */
function pathOf(url: string): string {
  const authorityStart = url.indexOf('//');
  const pathStart = url.indexOf('/', authorityStart === -1 ? 0 : authorityStart + 2);
  if (pathStart === -1) return '/';
  let end = url.length;
  const query = url.indexOf('?', pathStart);
  if (query !== -1) end = query;
  const fragment = url.indexOf('#', pathStart);
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(pathStart, end);
}
