// Entry point of @payment-service/mock/testing/msw: MSW request handlers that answer from a stateful sandbox.
import { type HttpHandler, http } from 'msw';

/** A sandbox to answer from: a test sandbox, or a mock server from `createMockServer`. */
export interface SandboxLike {
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** Used when `options.baseUrl` is not given (a test sandbox has one). */
  readonly baseUrl?: string;
}

/** Options of `paymentServiceHandlers`. */
export interface PaymentServiceHandlersOptions {
  /**
   * The provider's base URL your code calls, such as `https://api.payments.example` (a path
   * prefix is allowed). Default: the sandbox's `baseUrl`.
   */
  baseUrl?: string;
}

/**
 * MSW handlers (msw 2.x) that answer every request to `baseUrl` from the sandbox, in process:
 * a project that already intercepts with `msw/node`'s `setupServer` gets the stateful sandbox
 * behind the provider's URL, whether the SDK or its own `fetch` calls it. Requests are passed on
 * as they are (give your code `sandbox.apiKey`).
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createTestSandbox } from '@payment-service/mock/testing';
 * import { paymentServiceHandlers } from '@payment-service/mock/testing/msw';
 *
 * const sandbox = createTestSandbox();
 * const server = setupServer(...paymentServiceHandlers(sandbox, { baseUrl: 'https://api.payments.example' }));
 * server.listen({ onUnhandledRequest: 'error' });
 * await fetch('https://api.payments.example/v1/payments', { method: 'POST', headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' }, body }); // 201
 */
export function paymentServiceHandlers(
  sandbox: SandboxLike,
  options: PaymentServiceHandlersOptions = {},
): HttpHandler[] {
  const given = options.baseUrl ?? sandbox.baseUrl;
  if (given === undefined) {
    throw new TypeError(
      'paymentServiceHandlers(sandbox, { baseUrl }): baseUrl is required for this sandbox',
    );
  }
  let base: URL;
  try {
    base = new URL(given);
  } catch {
    throw new TypeError(`paymentServiceHandlers: baseUrl must be an absolute URL; got ${given}`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const answer = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const path = `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return sandbox.fetch(`http://sandbox.test${path}`, {
      method: request.method,
      headers: request.headers,
      ...(hasBody ? { body: await request.arrayBuffer() } : {}),
    });
  };
  return [
    http.all(`${base.origin}${prefix}`, answer),
    http.all(`${base.origin}${prefix}/*`, answer),
  ];
}
