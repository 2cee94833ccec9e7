// The proxy's forwarding half: node:http in front of one target origin, streaming both ways, hop-by-hop headers dropped, no redirect followed, sk_live_ keys and paths above the base refused; a bounded copy of each body is handed on after the answer is sent.
import {
  type ClientRequest,
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { carriesLiveKey, liveKeyScanner } from './decoded-secrets.js';
import { climbsAboveRoot } from './request-target.js';
import {
  createUpstreamShare,
  DEFAULT_MAX_IN_FLIGHT,
  type UpstreamShareOptions,
  type UpstreamTurn,
} from './upstream-share.js';

export { carriesLiveKey };

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The proxy answers `100 Continue` itself; the target gets the body as it comes.
  'expect',
]);

/** What the proxy hands on of one exchange, after the answer reached the app. */
export interface CapturedExchange {
  /** When the request arrived, ms since the epoch. */
  startedAt: number;
  method: string;
  /** The request target as the app sent it: path and query. */
  path: string;
  /** The URL the request went to. */
  url: string;
  httpVersion: string;
  /** Request headers as the app sent them (hop-by-hop included), names lower-cased. */
  requestHeaders: Record<string, string>;
  /** The start of the request body (at most the cap), and its whole size. */
  requestBody: Uint8Array;
  requestBytes: number;
  status: number;
  statusText: string;
  responseHeaders: Record<string, string>;
  responseBody: Uint8Array;
  responseBytes: number;
  /** The cap the copies were taken under: a body larger than it was forwarded whole but copied only in part. */
  cap: number;
  /** Why the target gave no answer (the app got a 502 from the proxy). */
  noAnswer?: string;
  /** Copies were not taken (the proxy's buffers were full): the exchange is counted, not checked. */
  uncopied?: boolean;
  /** Phases in ms: sending the request, waiting for the answer's head, receiving its body. */
  timings: { send: number; wait: number; receive: number };
  /** Gives the copies' bytes back to the proxy's budget: call once the exchange is checked. */
  release(): void;
}

/** Options of `startForwardingProxy`. */
export interface ForwardingOptions {
  /** The target: `http(s)://host[:port][/base]`; requests go to its origin only, under its base path. */
  target: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The most of one body copied for checking, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The most all copies in flight may hold, in bytes; past it, exchanges are forwarded uncopied. Default 64 MiB. */
  maxBufferedBytes?: number;
  /** Called once the answer is sent (or failed), with the copies; not on the forwarding path. It must call `release`. */
  onExchange(exchange: CapturedExchange): void;
  /** Called for a request refused before forwarding (an `sk_live_` key). */
  onRefused?(reason: 'live-key'): void;
  /** The wall clock, for `startedAt` (tests inject one). */
  now?: () => number;
  /**
   * How long one exchange may take, in ms, from its arrival (a wait for a free connection included)
   * to the answer's end. Past it: 504 problem+json if the answer has not begun, else the answer is
   * cut. Default 30 000.
   */
  upstreamTimeoutMs?: number;
  /** How the connections to the target are shared between clients (the app's address and key). */
  share?: UpstreamShareOptions;
  /** Runs `fire` after `ms`; returns the canceller. Default an unref'd `setTimeout` (tests inject time). */
  schedule?: (ms: number, fire: () => void) => () => void;
}

/** The exchange's time limit without `upstreamTimeoutMs`, in ms. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

function unrefTimeout(ms: number, fire: () => void): () => void {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

/** Whose request it is, for the fair share: the app's address and the key it sends (kept in memory only). */
function clientOf(incoming: IncomingMessage): string {
  const key = incoming.headers.authorization ?? incoming.headers['x-api-key'] ?? '';
  return `${incoming.socket.remoteAddress ?? ''} ${String(key)}`;
}

/** A running forwarding proxy. */
export interface ForwardingProxy {
  url: string;
  /** Copies in flight, in bytes. */
  readonly bufferedBytes: number;
  close(): Promise<void>;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Headers minus the hop-by-hop ones and any the Connection header names. */
function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

function problem(
  response: ServerResponse,
  status: number,
  code: string,
  title: string,
  detail: string,
) {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail, code });
  response.writeHead(status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}

/**
 * Starts a proxy that forwards every request to `target`'s origin (path and query appended to its
 * base path), streams both bodies, follows no redirect and refuses `sk_live_` keys with a 403.
 *
 * @example
 * const proxy = await startForwardingProxy({ target: 'http://127.0.0.1:4010', onExchange: (exchange) => queue.push(exchange) });
 * // the app's base URL: proxy.url
 * await proxy.close();
 */
export async function startForwardingProxy(options: ForwardingOptions): Promise<ForwardingProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new Error(`--target must be an http(s) URL, not ${target.protocol}`);
  const secure = target.protocol === 'https:';
  const basePath = target.pathname.replace(/\/+$/, '');
  const cap = options.maxBodyBytes ?? 1024 * 1024;
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const share = createUpstreamShare(options.share);
  const maxSockets = options.share?.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  // The share decides who goes: the agent never queues a request behind another client's.
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets })
    : new HttpAgent({ keepAlive: true, maxSockets });
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const schedule = options.schedule ?? unrefTimeout;
  const send = secure ? httpsRequest : httpRequest;
  let buffered = 0;

  /** A bounded copy of a stream's chunks, within the exchange's and the proxy's budgets. */
  function copier() {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    let refused = false;
    return {
      take(chunk: Buffer) {
        total += chunk.byteLength;
        if (kept >= cap) return;
        const piece = chunk.subarray(0, cap - kept);
        if (buffered + piece.byteLength > maxBuffered) {
          refused = true;
          return;
        }
        buffered += piece.byteLength;
        kept += piece.byteLength;
        chunks.push(piece);
      },
      get total() {
        return total;
      },
      get refused() {
        return refused;
      },
      body: () => Buffer.concat(chunks, kept),
      release: () => {
        buffered -= kept;
        kept = 0;
        chunks.length = 0;
      },
    };
  }

  function handle(incoming: IncomingMessage, outgoing: ServerResponse) {
    const started = performance.now();
    const startedAt = now();
    const path = incoming.url ?? '/';
    // Origin form only: an absolute URI (`GET http://elsewhere/…`) or `*` never leaves for elsewhere.
    if (!path.startsWith('/')) {
      incoming.resume();
      problem(
        outgoing,
        400,
        'absolute_form_refused',
        'Request target refused',
        'This proxy forwards to its one target only: send an origin-form request target (a path beginning with /).',
      );
      return;
    }
    // Under the target's base path only: a `..` that climbs above it, however encoded, is refused.
    if (climbsAboveRoot(path)) {
      incoming.resume();
      problem(
        outgoing,
        400,
        'path_outside_base',
        'Request path refused',
        "The request path climbs above its root (a '..' segment, encoded or not): the contract proxy forwards under its target's base path only, so it was not sent.",
      );
      return;
    }
    const refuseLiveKey = () => {
      options.onRefused?.('live-key');
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      problem(
        outgoing,
        403,
        'live_key_refused',
        'Live key refused',
        'The request carried an sk_live_ key: the contract proxy forwards sandbox traffic only, so it was not sent. Use an sk_test_ key.',
      );
    };
    // The request line and every header, as a server would decode them (percent, Basic, base64).
    if (carriesLiveKey(incoming.method, path, ...incoming.rawHeaders)) {
      incoming.resume();
      refuseLiveKey();
      return;
    }
    const headers = endToEnd(incoming.headers);
    headers.host = target.host;
    const url = `${target.origin}${basePath}${path}`;
    const requestCopy = copier();
    const responseCopy = copier();
    let sentAt = started;
    let headAt = started;
    let status = 0;
    let statusText = '';
    let responseHeaders: Record<string, string> = {};
    let noAnswer: string | undefined;
    let done = false;
    const finish = () => {
      if (done || refused) return;
      done = true;
      const end = performance.now();
      const uncopied = requestCopy.refused || responseCopy.refused;
      const exchange: CapturedExchange = {
        startedAt,
        method: incoming.method ?? 'GET',
        path,
        url,
        httpVersion: `HTTP/${incoming.httpVersion}`,
        requestHeaders: flatten(incoming.headers),
        requestBody: requestCopy.body(),
        requestBytes: requestCopy.total,
        status,
        statusText,
        responseHeaders,
        responseBody: responseCopy.body(),
        responseBytes: responseCopy.total,
        cap,
        timings: {
          send: Math.max(0, sentAt - started),
          wait: Math.max(0, headAt - sentAt),
          receive: Math.max(0, end - headAt),
        },
        ...(noAnswer !== undefined ? { noAnswer } : {}),
        ...(uncopied ? { uncopied: true } : {}),
        release: () => {
          requestCopy.release();
          responseCopy.release();
        },
      };
      // Checking waits until the answer is on its way: nothing of it runs on the forwarding path.
      setImmediate(() => options.onExchange(exchange));
    };
    let refused = false;
    let upstream: ClientRequest | undefined;
    /** The request to the target, opened once the first bytes of the body pass the scanner (or it ends). */
    const open = (): ClientRequest => {
      if (upstream) return upstream;
      const request = send({
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || (secure ? 443 : 80),
        method: incoming.method,
        path: `${basePath}${path}`,
        headers,
        agent,
      });
      request.on('response', (answer) => {
        headAt = performance.now();
        status = answer.statusCode ?? 0;
        statusText = answer.statusMessage ?? '';
        responseHeaders = flatten(answer.headers);
        outgoing.writeHead(status, statusText, endToEnd(answer.headers));
        answer.on('data', (chunk: Buffer) => responseCopy.take(chunk));
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
      });
      request.on('error', (error) => {
        if (refused || done) return;
        noAnswer = (error as NodeJS.ErrnoException).code ?? error.message;
        if (!outgoing.headersSent) {
          problem(
            outgoing,
            502,
            'target_unreachable',
            'Target unreachable',
            `The contract proxy could not reach its target (${noAnswer}).`,
          );
        } else outgoing.destroy();
        finish();
      });
      upstream = request;
      return request;
    };
    // The body passes through the live-key scanner: nothing of a key is sent before it is seen.
    const scanner = liveKeyScanner();
    let turn: UpstreamTurn | undefined;
    let cancelDeadline: () => void = () => {};
    /** Gives the connection slot and the timer back: once the exchange is over, however it ended. */
    const settle = () => {
      cancelDeadline();
      turn?.cancel();
    };
    const refuseBody = () => {
      refused = true;
      settle();
      incoming.removeAllListeners('data');
      incoming.resume();
      upstream?.destroy();
      requestCopy.release();
      responseCopy.release();
      refuseLiveKey();
    };
    /** Reads the body through the scanner and on to the target: once this client's turn has come. */
    const start = () => {
      incoming.on('data', (chunk: Buffer) => {
        requestCopy.take(chunk);
        const pass = scanner.push(chunk);
        if (pass === 'refused') return refuseBody();
        if (pass.byteLength === 0) return;
        const request = open();
        if (!request.write(pass)) {
          incoming.pause();
          request.once('drain', () => incoming.resume());
        }
      });
      incoming.on('end', () => {
        if (refused) return;
        const rest = scanner.end();
        if (rest === 'refused') return refuseBody();
        sentAt = performance.now();
        open().end(rest);
      });
    };
    cancelDeadline = schedule(timeoutMs, () => {
      if (done || refused) return;
      noAnswer = `no answer within ${timeoutMs} ms (the proxy's upstream timeout)`;
      upstream?.destroy();
      turn?.cancel();
      if (!outgoing.headersSent) {
        incoming.resume();
        problem(
          outgoing,
          504,
          'target_timeout',
          'Target timed out',
          `The target did not answer within ${timeoutMs} ms (the contract proxy's --upstream-timeout), so the proxy stopped waiting.`,
        );
      } else outgoing.destroy();
      finish();
    });
    const taken = share.take(clientOf(incoming), start);
    if (taken === 'full') {
      cancelDeadline();
      incoming.resume();
      outgoing.setHeader('retry-after', '1');
      problem(
        outgoing,
        503,
        'proxy_busy',
        'Proxy busy',
        'This client already has as many requests waiting for the target as the contract proxy keeps: retry once some have been answered.',
      );
      return;
    }
    turn = taken;
    outgoing.on('finish', () => {
      settle();
      finish();
    });
    outgoing.on('close', () => {
      settle();
      // The app went away before the answer ended: stop the upstream request too.
      if (!outgoing.writableFinished && !refused) {
        upstream?.destroy();
        noAnswer ??= 'the app closed the connection before the answer ended';
        finish();
      }
    });
  }

  const server = createServer({ keepAliveTimeout: 65_000 }, handle);
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    get bufferedBytes() {
      return buffered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
