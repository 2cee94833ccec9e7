// The Node HTTP server's limits and the answers made below the app: timeouts, connection cap, pipelining, bad requests.
import type { ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { newRequestId } from '../shared/ids.js';
import { extend } from '../shared/objects.js';
import { type ProblemInit, renderProblem } from '../shared/problems.js';
import type { HttpLimits } from './http-limits.js';

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
 * The problem of a request whose `Transfer-Encoding` the server cannot read (anything but a list
 * ending in `chunked`), or undefined when it has none or a readable one. Node reads no body after
 * such a header and closes the connection: without this answer the client gets none.
 *
 * @example
 * refusedFraming('xchunked')?.param; // 'Transfer-Encoding'
 * refusedFraming('chunked'); // undefined
 */
export function refusedFraming(transferEncoding: string | undefined): ProblemInit | undefined {
  if (transferEncoding === undefined) return undefined;
  const codings = transferEncoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.at(-1) === 'chunked') return undefined;
  const shown =
    transferEncoding.length > 64 ? `${transferEncoding.slice(0, 63)}…` : transferEncoding;
  return {
    code: 'invalid_request',
    detail: `Transfer-Encoding ${JSON.stringify(shown)} is not supported: send the body with Content-Length, or with Transfer-Encoding: chunked.`,
    param: 'Transfer-Encoding',
  };
}

/**
 * Answers a problem at once (synchronously, with a fresh `Request-Id`) and closes the connection
 * after it: for a request whose body cannot be read, so nothing else on the connection can be.
 *
 * @example
 * answerAndClose(response, { code: 'invalid_request', detail: 'Unreadable body.' });
 */
export function answerAndClose(response: ServerResponse, problem: ProblemInit): void {
  const requestId = newRequestId();
  const parts = renderProblem(problem, requestId);
  response.shouldKeepAlive = false;
  response.writeHead(
    parts.status,
    extend(parts.headers, {
      'request-id': requestId,
      'content-length': String(Buffer.byteLength(parts.body)),
      connection: 'close',
    }),
  );
  response.end(parts.body);
}

/**
 * The server's `clientError` hook: a request Node cannot parse gets a problem+json 400 with a
 * `Request-Id`; a client cut by a timeout, or already gone, is closed without an answer.
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const pending = (socket as Socket & { _httpMessage?: { writableEnded?: boolean } | null })
    ._httpMessage;
  if (!timedOut && pending?.writableEnded === true) {
    // Already answered (an unreadable body, see `answerAndClose`): let the answer out, then close.
    socket.end();
    return;
  }
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
