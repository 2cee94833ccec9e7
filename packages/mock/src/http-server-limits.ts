// The Node HTTP server's limits and the answers made below the app: timeouts, connection cap, pipelining, bad requests.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from './http-limits.js';
import { newRequestId } from './ids.js';
import { extend } from './objects.js';
import { type ProblemInit, renderProblem } from './problems.js';

// The limits' type and defaults live in a module free of node types, for the `./node` entry's declarations.
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';

/**
 * The `http.createServer` options for these limits. Host-less requests reach the app (which
 * serves HTTP/1.0 without `Host` and answers HTTP/1.1 without one with a problem).
 *
 * @example
 * createServer(httpServerOptions(DEFAULT_HTTP_LIMITS), listener);
 */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Timeouts are checked this often; Node's default (30 s) would let slow clients linger.
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
    ),
    requireHostHeader: false,
    maxHeaderSize: limits.maxHeaderBytes,
  };
}

/**
 * A problem answer made outside the app, with a fresh `Request-Id`.
 *
 * @example
 * problemAnswer({ code: 'invalid_request', detail: 'The Host header is malformed.' }).status; // 400
 */
export function problemAnswer(problem: ProblemInit): Response {
  const requestId = newRequestId();
  const parts = renderProblem(problem, requestId);
  return new Response(parts.body, {
    status: parts.status,
    headers: extend(parts.headers, { 'request-id': requestId }),
  });
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request' };

/**
 * The server's `clientError` hook: a request Node cannot parse gets a problem+json 400 with a
 * `Request-Id`; a client cut by a timeout, or already gone, is closed without an answer.
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  if (
    timedOut ||
    !socket.writable ||
    (socket as Socket & { _httpMessage?: unknown })._httpMessage
  ) {
    socket.destroy();
    return;
  }
  const detail =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are larger than the server accepts.'
      : 'The request is not valid HTTP/1.1.';
  const requestId = newRequestId();
  const parts = renderProblem({ code: 'invalid_request', detail }, requestId);
  const head = [
    `HTTP/1.1 ${parts.status} ${STATUS_TEXT[parts.status] ?? 'Error'}`,
    ...Object.entries(extend(parts.headers, { 'request-id': requestId })).map(
      ([k, v]) => `${k}: ${v}`,
    ),
    `content-length: ${Buffer.byteLength(parts.body)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${parts.body}`);
}

/** Counts requests in flight, bounds them per connection, and waits for them at shutdown. */
export interface RequestGate {
  /** Runs `handle` now, or once the connection has fewer than `maxPipelined` requests in flight. */
  admit(request: IncomingMessage, response: ServerResponse, handle: () => void): void;
  /** Resolves when no request is in flight. */
  drained(): Promise<void>;
}

interface ConnectionState {
  active: number;
  waiting: (() => void)[];
}

/**
 * A gate that stops reading a connection while `maxPipelined` of its requests are being
 * answered or waiting, so unread answers cannot pile up in memory.
 *
 * @example
 * const gate = createRequestGate(16);
 * server.on('request', (req, res) => gate.admit(req, res, () => listener(req, res)));
 */
export function createRequestGate(maxPipelined: number): RequestGate {
  const connections = new WeakMap<Socket, ConnectionState>();
  let inFlight = 0;
  let onDrained: (() => void) | undefined;

  return {
    admit(request, response, handle) {
      const socket = request.socket;
      let state = connections.get(socket);
      if (state === undefined) {
        state = { active: 0, waiting: [] };
        connections.set(socket, state);
      }
      const connection = state;
      inFlight += 1;
      const start = () => {
        connection.active += 1;
        // A response closes once: \`on\` spares the wrapper \`once\` makes per request.
        response.on('close', () => {
          connection.active -= 1;
          inFlight -= 1;
          connection.waiting.shift()?.();
          if (connection.active + connection.waiting.length < maxPipelined) socket.resume();
          if (inFlight === 0) onDrained?.();
        });
        handle();
      };
      if (connection.active < maxPipelined) start();
      else connection.waiting.push(start);
      if (connection.active + connection.waiting.length >= maxPipelined) socket.pause();
    },
    drained() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => {
        onDrained = resolve;
      });
    },
  };
}
