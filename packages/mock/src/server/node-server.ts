// Serves a mock over HTTP with @hono/node-server: `startMockServer` for tests, scripts and the CLI.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createMockServer } from '../app/mock-server.js';
import type { MockServerOptions } from '../app/options.js';
import type { ProblemInit } from '../shared/problems.js';
import {
  type AllowedHosts,
  hostAllowance,
  hostnameOf,
  loopbackWebhooksAllowed,
} from './allowed-hosts.js';
import { createConnections } from './connections.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';
import {
  answerAndClose,
  answerClientError,
  httpServerOptions,
  problemAnswer,
  refusedFraming,
} from './limits.js';

export type { AllowedHosts } from './allowed-hosts.js';
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';

/** Options of `startMockServer`: the mock's options plus where to listen and the HTTP limits. */
export interface StartMockServerOptions extends MockServerOptions {
  /** TCP port; 0 (the default here) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  hostname?: string;
  /** HTTP server limits; each defaults to `DEFAULT_HTTP_LIMITS`. */
  http?: Partial<HttpLimits>;
  /**
   * The names in `Host` the server answers besides loopback ones (an entry beginning with `.`
   * allows that domain's subdomains), or `'any'`. By default a server on a loopback address
   * answers loopback names only, so a web page that rebinds its own name to 127.0.0.1 cannot
   * reach it; a server on any other address answers every name. Others get `421 host_not_allowed`.
   */
  allowedHosts?: AllowedHosts;
}

/** A mock listening over HTTP. */
export interface RunningMockServer {
  /** Base URL, such as `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /**
   * Resolves once no webhook attempt is in flight and none is due now (as `MockServer.webhooksSettled`).
   *
   * @example
   * await client.payments.create(params);
   * await server.webhooksSettled(); // every webhook of that create has reached its receiver
   */
  webhooksSettled(): Promise<void>;
  /**
   * Stops listening, lets requests in flight finish for up to `graceMs` (default 0), then ends
   * every connection and stops the mock's timers.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Starts a mock server over HTTP. `drop_after_commit` faults destroy the socket, so the client
 * sees a connection error after the change was committed.
 *
 * @example
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/payments`, { headers: { authorization: 'Bearer sk_test_12345678' } });
 * await server.close();
 */
export async function startMockServer(
  options: StartMockServerOptions = {},
): Promise<RunningMockServer> {
  const { port = 0, hostname = '127.0.0.1', http, allowedHosts, ...mockOptions } = options;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...http };
  const mock = createMockServer({
    ...mockOptions,
    // Reachable from other machines: keys may not point webhooks at this machine's own services.
    allowLoopbackWebhookUrls: loopbackWebhooksAllowed(
      hostname,
      mockOptions.allowLoopbackWebhookUrls,
    ),
  });
  try {
    await mock.ready();
  } catch (error) {
    mock.close();
    throw error;
  }
  const listener = getRequestListener(mock.app.fetch, {
    // HTTP/1.0 allows a request without Host: it is served as if sent to localhost.
    hostname: 'localhost',
    errorHandler: (error) =>
      problemAnswer(
        error instanceof Error && /host/i.test(error.message)
          ? { code: 'invalid_request', detail: 'The Host header is malformed.', param: 'Host' }
          : { code: 'invalid_request', detail: 'The request target is not a valid URL path.' },
      ),
  });
  const allows = hostAllowance(hostname, allowedHosts);
  /** The last `Host` an origin-form request was served with (the allowance never changes). */
  let servedHost: string | undefined;
  const connections = createConnections(limits);
  const server = createServer(httpServerOptions(limits), (request, response) => {
    const framing = refusedFraming(request.headers['transfer-encoding']);
    if (framing !== undefined) {
      // Node cannot read this body and closes the connection when it tries: answer first, now.
      answerAndClose(response, framing);
      return;
    }
    connections.admit(request, response, () => {
      const { host } = request.headers;
      if (request.httpVersion !== '1.0' && host === undefined) {
        void listenerAnswer(response, problemAnswer(missingHost));
        return;
      }
      if (host !== undefined && host.trim() === '') {
        void listenerAnswer(response, problemAnswer(emptyHost));
        return;
      }
      // Clients send the same Host every time: the last one served skips the URL parser.
      const originForm = request.url?.startsWith('/') === true;
      if (host !== servedHost || !originForm) {
        const refused = refusedHost(host, request.url, allows);
        if (refused !== undefined) {
          void listenerAnswer(response, problemAnswer(refused));
          return;
        }
        if (originForm) servedHost = host;
      }
      void listener(request, response);
    });
  });
  server.on('connection', connections.accept);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    webhooksSettled: () => mock.webhooksSettled(),
    close: async ({ graceMs = 0 } = {}) => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeIdleConnections();
      if (graceMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          connections.drained(),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, graceMs);
          }),
        ]);
        clearTimeout(timer);
      }
      server.closeAllConnections();
      mock.close();
      await closed;
    },
  };
}

const emptyHost = {
  code: 'invalid_request',
  detail:
    'The Host header is empty: name the host the request is addressed to, such as Host: 127.0.0.1:4010.',
  param: 'Host',
} as const;

const missingHost = {
  code: 'invalid_request',
  detail: 'HTTP/1.1 requests need a Host header.',
  param: 'Host',
} as const;

/**
 * The problem for a request addressed to a name the server does not answer: its `Host`, or the
 * authority of an absolute request target (which takes precedence over `Host`); undefined when
 * it may be served (a malformed one is left to the adapter's 400).
 */
function refusedHost(
  host: string | undefined,
  target: string | undefined,
  allows: (hostname: string) => boolean,
): ProblemInit | undefined {
  const names: string[] = [];
  const named = host === undefined ? undefined : hostnameOf(host);
  if (named !== undefined) names.push(named);
  // The adapter serves an absolute http(s) target as the URL parser reads it, whatever `Host` says.
  if (target !== undefined && /^https?:\/\//.test(target) && URL.canParse(target)) {
    names.push(new URL(target).hostname);
  }
  for (const name of names) {
    if (allows(name)) continue;
    return {
      code: 'host_not_allowed',
      detail: `This sandbox does not answer requests addressed to ${name}: a sandbox on a loopback address answers loopback names only (localhost, 127.0.0.1, [::1]), so that no web page can reach it by rebinding its own name to this machine. Start it with --allowed-hosts ${name} (allowedHosts in startMockServer) to answer this name too.`,
      param: 'Host',
    };
  }
  return undefined;
}

/** Writes a Fetch `Response` made outside the app to a Node response. */
async function listenerAnswer(response: ServerResponse, answer: Response): Promise<void> {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(await answer.text());
}
