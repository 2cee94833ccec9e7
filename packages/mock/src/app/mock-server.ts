// The mock server factory: a Hono app with one route per spec operation and the contract's middleware.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import { type Context, Hono } from 'hono';
import { consoleHomeAtMountPoint, registerConsole } from '../console/routes.js';
import { AnsweringRouter } from '../http/answering-router.js';
import type { MockEnv } from '../http/env.js';
import {
  answerProblem,
  type Exchange,
  internalError,
  type Observer,
  observed,
  openExchange,
} from '../http/exchange.js';
import type { PipelineContext } from '../http/pipeline.js';
import { registerRoutes } from '../http/routes.js';
import { createSandboxRoutes } from '../http/sandbox-routes.js';
import { createV1Routes } from '../http/v1-routes.js';
import { STORE_WAIT_MS, withStoreBudget } from '../store/redis/budget.js';
import type { MockServerOptions } from './options.js';
import { createRuntime, type Runtime } from './runtime.js';

/** A running mock: call its `fetch` in process, or serve its Hono `app` over HTTP. */
export interface MockServer {
  /**
   * Handles a request in process, with no port. A dropped connection (the `drop_after_commit`
   * fault) rejects with `TypeError('fetch failed')`, as undici's fetch does.
   */
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /**
   * The Hono app: serve it with `@hono/node-server` (or any runtime adapter), or mount it in
   * your own Hono app under a prefix with `app.route('/sandbox', mock.app)`.
   */
  readonly app: Hono<MockEnv>;
  /**
   * Resolves once no webhook attempt is in flight and none is due now; retries due later on a
   * key's sandbox clock do not count. Await it in a test before checking what a receiver got,
   * instead of sleeping.
   *
   * @example
   * await mock.fetch('/v1/payments', { method: 'POST', headers, body });
   * await mock.webhooksSettled();
   * expect(receiver.received).toHaveLength(1);
   */
  webhooksSettled(): Promise<void>;
  /**
   * Resolves once the store is open: at once in memory and with `dataDir`; with `redisUrl`, once
   * Valkey/Redis answered and its data under the prefix is of this format. Rejects with the
   * reason otherwise (requests meanwhile answer `503 store_unavailable`, and the open is tried
   * again; another format under the prefix stays refused).
   *
   * @example
   * const mock = createMockServer({ redisUrl: 'redis://127.0.0.1:6379' });
   * await mock.ready();
   */
  ready(): Promise<void>;
  /** Stops every timer (injected latencies end at once) and closes the store's connection. */
  close(): void;
}

/** Marks an in-process request whose connection must be dropped. */
interface InProcessBindings {
  inProcess: true;
  dropped: boolean;
}

/**
 * Creates a stateful mock of the payment API. Memory is bounded: at most `maxPaymentsPerKey`
 * payments per key and `maxPaymentsTotal` overall (the oldest are evicted first), and
 * idempotency records expire after `idempotencyTtlSeconds`, and at most 10 000 accounts are kept
 * (the least recently used is forgotten).
 *
 * Each operation is one pipeline built here: auth, faults (/v1 only), body limit + JSON,
 * validation, idempotency (/v1 POSTs), the operation's handler, the answer; then its log line
 * and its inspector record, once.
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
  return mockServerOf(createRuntime(options));
}

/**
 * The mock server of a runtime already built (the testing entry keeps the runtime to reach the
 * key's state and the dispatcher).
 *
 * @example
 * const runtime = createRuntime({ seed: 1 });
 * const mock = mockServerOf(runtime);
 */
export function mockServerOf(runtime: Runtime): MockServer {
  const { logger, maxBodyBytes, clock } = runtime.options;
  // An operation's route ends its match: Hono serves it without composing the routes after it.
  const app = new Hono<MockEnv>({ router: new AnsweringRouter() });
  const observer: Observer = { logger, clock };
  const context: PipelineContext = {
    observer,
    serviceFor: (apiKey) => runtime.serviceFor(apiKey),
    maxBodyBytes,
    sleep: runtime.sleep,
    deliver: runtime.deliver,
    persist: runtime.persist,
  };
  if (runtime.options.redisUrl !== undefined) {
    // On Valkey/Redis a request waits on the store STORE_WAIT_MS in all, its round trips together.
    app.use('*', (_c, next) => withStoreBudget(STORE_WAIT_MS, next));
  }
  registerRoutes(
    app,
    openapiDocument,
    createV1Routes(runtime.validators, runtime.tokens, runtime.limitBounds),
    { api: true, context },
  );
  registerRoutes(
    app,
    sandboxDocument,
    createSandboxRoutes(runtime.sandboxValidators, { log: runtime.options.logStatus }),
    {
      api: false,
      context,
    },
  );

  registerConsole(app, observer);

  const notFound = (c: Context<MockEnv>, exchange: Exchange) =>
    answerProblem(exchange, {
      code: 'not_found',
      detail: c.req.path.includes('/v1/')
        ? 'No resource exists at this path.'
        : 'No resource exists at this path; API paths begin with /v1.',
    });
  app.notFound(observed(observer, notFound));
  // Mounted under a prefix (`app.route('/sandbox', mock.app)`), the host app's own not-found
  // handler would answer an unknown path: this last route keeps every 404 a problem, and serves
  // the console at the prefix with a trailing slash.
  app.all(
    '*',
    observed(observer, (c, exchange) => consoleHomeAtMountPoint(c) ?? notFound(c, exchange)),
  );
  // Every route catches its own failures (a 500 problem, observed); this is the last resort.
  app.onError((error, c) => internalError(c.get('exchange') ?? openExchange(c, clock), error));

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
    webhooksSettled: () => runtime.webhooksSettled(),
    ready: () => runtime.ready(),
    close() {
      runtime.close();
    },
  };
}
