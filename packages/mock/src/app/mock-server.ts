// The mock server factory: a Hono app with one route per spec operation and the contract's middleware.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import { type Context, Hono } from 'hono';
import { consoleHomeAtMountPoint, registerConsole } from '../console/routes.js';
import type { MockEnv } from '../http/env.js';
import {
  authentication,
  handlerStep,
  idempotency,
  injectedFaults,
  jsonBody,
  requestId,
  requestLog,
  requestRecorder,
  validation,
} from '../http/middleware.js';
import { problem } from '../http/respond.js';
import { registerRoutes } from '../http/routes.js';
import { createSandboxRoutes } from '../http/sandbox-routes.js';
import { createV1Routes } from '../http/v1-routes.js';
import { newRequestId } from '../shared/ids.js';
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
  /** Stops every timer (injected latencies end at once). */
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
 * The middleware run in this order: request id, request log, then per route: auth, the
 * inspector's request recorder, faults (/v1 only), body limit + JSON, validation, idempotency
 * (POSTs), the operation's handler.
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
  const { logger, maxBodyBytes } = runtime.options;
  const app = new Hono<MockEnv>();

  app.use(requestId());
  if (logger !== undefined) app.use(requestLog(logger));

  const auth = authentication((apiKey) => runtime.serviceFor(apiKey));
  const recorder = requestRecorder(runtime.options.clock);
  app.use('/v1/*', auth, recorder, injectedFaults(runtime.sleep));
  app.use('/_sandbox/*', auth, recorder);
  const readBody = jsonBody(maxBodyBytes);
  registerRoutes(
    app,
    openapiDocument,
    createV1Routes(runtime.validators, runtime.tokens, runtime.limitBounds),
    {
      before: [],
      readBody,
      validate: validation({ idempotencyKey: true }),
      idempotency: idempotency(),
      run: handlerStep({ settleFirst: true, sleep: runtime.sleep, deliver: runtime.deliver }),
    },
  );
  registerRoutes(app, sandboxDocument, createSandboxRoutes(runtime.sandboxValidators), {
    before: [],
    readBody,
    validate: validation({ idempotencyKey: false }),
    idempotency: undefined,
    run: handlerStep({ settleFirst: false, sleep: runtime.sleep, deliver: runtime.deliver }),
  });

  registerConsole(app);

  const notFound = (c: Context<MockEnv>) =>
    problem(c, {
      code: 'not_found',
      detail: c.req.path.includes('/v1/')
        ? 'No resource exists at this path.'
        : 'No resource exists at this path; API paths begin with /v1.',
    });
  app.notFound(notFound);
  // Mounted under a prefix (`app.route('/sandbox', mock.app)`), the host app's own not-found
  // handler would answer an unknown path: this last route keeps every 404 a problem, and serves
  // the console at the prefix with a trailing slash.
  app.all('*', (c) => consoleHomeAtMountPoint(c) ?? notFound(c));
  app.onError((_error, c) => {
    if (c.get('requestId') === undefined) c.set('requestId', newRequestId());
    return problem(c, {
      code: 'internal_error',
      detail: 'The sandbox failed unexpectedly. Retrying with the same Idempotency-Key is safe.',
    });
  });

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
    close() {
      runtime.close();
    },
  };
}
