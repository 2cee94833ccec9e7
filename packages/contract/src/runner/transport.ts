// Sends the scenarios' requests: to the target's origin only (no redirect followed), within the request budget, rate and deadline, only test tokens, every response checked against the spec.
import type { CheckLedger } from '../checks/ledger.js';
import { ConfigurationError, RunStoppedError } from '../errors.js';
import type {
  Exchange,
  ExchangeResult,
  ResponseValidator,
} from '../validation/response-validator.js';
import { type Clock, createRateLimiter } from './clock.js';
import { type ExchangeRecord, locationOrigin, recordExchange } from './exchange-record.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { describeNetworkError } from './network-errors.js';

/** A request a scenario sends. */
export interface ScenarioRequest {
  /** Default: GET without a body, POST with one. */
  method?: string;
  /** The path and query, such as `/v1/payments?limit=3`. */
  path: string;
  /** A string is sent as is; anything else is JSON-encoded with `Content-Type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The key to send; `null` sends no Authorization header. Default: the run's key. */
  apiKey?: string | null;
  /**
   * A probe or a clean-up, not a check: its answer is not checked against the spec, and it may
   * go past the request budget (a run always deletes the webhook endpoints it created).
   */
  unchecked?: boolean;
  /** A clean-up after the run (deleting its endpoints): sent past the deadline, with a short time-out. */
  cleanup?: boolean;
}

/** A response, read and checked. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined. */
  // biome-ignore lint/suspicious/noExplicitAny: scenario code reads arbitrary JSON and checks each field itself
  json: any;
  /** The problem's `code`, when the body has one. */
  code: string | undefined;
  /** The body nested past MAX_JSON_DEPTH: `json` is then undefined (it is not read further). */
  tooDeep?: boolean;
  record: ExchangeRecord;
  result: ExchangeResult;
}

/** What the transport needs. */
export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: (request: Request) => Promise<Response>;
  clock: Clock;
  /** Requests per second, at most (Infinity: no limit). */
  rate: number;
  /** Requests in the whole run, at most. */
  maxRequests: number;
  /** How long one request may take. */
  timeoutMs: number;
  /** When the run must end, on `clock` (ms since the epoch); no request is sent or waited for past it. */
  deadline?: number;
  /** How many requests in a row may time out before the run stops (exit 3). */
  maxConsecutiveTimeouts?: number;
  validator: ResponseValidator;
  ledger: CheckLedger;
  userAgent: string;
  /** Called with every checked exchange (our own test suite builds its coverage table from it). */
  onExchange?: (exchange: Exchange, result: ExchangeResult) => void;
}

/** The result of an exchange that is not checked (a probe, a clean-up, a dropped request). */
const UNCHECKED: ExchangeResult = {
  operation: 'unchecked',
  spec: undefined,
  statusKey: undefined,
  checks: [],
  violations: [],
};

/** Responses larger than this are cut: no answer can fill the runner's memory. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Schema checks one exchange can fail, at most: a hostile body cannot make thousands. */
const MAX_VIOLATIONS_PER_EXCHANGE = 20;

/** Default of `maxConsecutiveTimeouts`. */
export const MAX_CONSECUTIVE_TIMEOUTS = 3;

/** A clean-up request (deleting the run's endpoints) waits at most this long, whatever `--timeout` says. */
const CLEANUP_TIMEOUT_MS = 10_000;

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_BODY_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

/** Refuses any payment token that is not a test token, wherever it sits in a body. */
function assertOnlyTestTokens(body: unknown): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'token' && typeof inner === 'string' && !inner.startsWith('tok_test_')) {
        throw new Error(`refusing to send the token ${inner}: only tok_test_ tokens are sent`);
      }
      visit(inner);
    }
  };
  visit(body);
}

/**
 * Creates the transport of one run against one target.
 *
 * @example
 * const transport = createTransport({ baseUrl, apiKey, fetch, clock: systemClock, rate: 25, maxRequests: 1000, timeoutMs: 30_000, validator, ledger, userAgent });
 * const answer = await transport.send({ path: '/v1/payments?limit=1' });
 */
export function createTransport(options: TransportOptions) {
  const take = createRateLimiter(options.rate, options.clock);
  const maxTimeouts = options.maxConsecutiveTimeouts ?? MAX_CONSECUTIVE_TIMEOUTS;
  let sent = 0;
  let timeoutsInARow = 0;

  /** The time left before the deadline, in ms (Infinity without one). */
  const remaining = () =>
    options.deadline === undefined
      ? Number.POSITIVE_INFINITY
      : options.deadline - options.clock.now();

  function assertBeforeDeadline() {
    if (remaining() <= 0) {
      throw new RunStoppedError(
        `the run reached its deadline (--deadline) after ${sent} requests: the report holds what ran`,
      );
    }
  }

  /** The time one request may take: its time-out, or less when the deadline is nearer. */
  const requestTimeout = (cleanup = false) =>
    cleanup
      ? Math.min(options.timeoutMs, CLEANUP_TIMEOUT_MS)
      : Math.max(1, Math.min(options.timeoutMs, remaining()));

  /** Whether the target still answers a plain request (after one request got no answer). */
  async function stillAnswers(): Promise<boolean> {
    try {
      const probe = new Request(new URL('/v1/payments?limit=1', `${options.baseUrl}/`), {
        headers: { authorization: `Bearer ${options.apiKey}`, 'user-agent': options.userAgent },
        redirect: 'manual',
        signal: AbortSignal.timeout(requestTimeout()),
      });
      await readBounded(await options.fetch(probe));
      return true;
    } catch {
      return false;
    }
  }

  /** The answer to a request the target dropped while still answering others: status 0, the reason in the record. */
  function noAnswer(
    method: string,
    url: URL,
    headers: Headers,
    body: string | undefined,
    reason: string,
  ): Answer {
    const record = recordExchange(
      { method, url: url.href, headers },
      body,
      { status: 0, headers: new Headers() },
      `(no answer: ${reason})`,
      options.apiKey,
    );
    return {
      status: 0,
      headers: new Headers(),
      text: '',
      json: undefined,
      code: undefined,
      record,
      result: UNCHECKED,
    };
  }

  async function send(request: ScenarioRequest): Promise<Answer> {
    if (!request.cleanup) assertBeforeDeadline();
    if (sent >= options.maxRequests && !request.unchecked) {
      throw new ConfigurationError(
        `the request budget ran out after ${sent} requests (--max-requests ${options.maxRequests}); raise it to run every check`,
      );
    }
    assertOnlyTestTokens(request.body);
    sent += 1;
    await take();
    if (!request.cleanup) assertBeforeDeadline();
    const url = new URL(request.path, `${options.baseUrl}/`);
    const headers = new Headers(request.headers);
    headers.set('user-agent', options.userAgent);
    const apiKey = request.apiKey === undefined ? options.apiKey : request.apiKey;
    if (apiKey !== null && !headers.has('authorization'))
      headers.set('authorization', `Bearer ${apiKey}`);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const method = request.method ?? (body === undefined ? 'GET' : 'POST');
    const timeoutMs = requestTimeout(request.cleanup);
    const started = options.clock.now();
    const outgoing = new Request(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      // A 3xx is the target's answer, never a request to another origin.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(outgoing);
      text = await readBounded(response);
    } catch (error) {
      const unreachable = describeNetworkError(error, url, timeoutMs);
      if (request.cleanup) throw unreachable;
      if ((error as { name?: string } | undefined)?.name === 'TimeoutError') {
        timeoutsInARow += 1;
        assertBeforeDeadline();
        if (timeoutsInARow >= maxTimeouts) {
          throw new RunStoppedError(
            `${timeoutsInARow} requests in a row got no answer within ${timeoutMs / 1000} s (--timeout): the run stopped; the report holds what ran`,
          );
        }
      }
      // A target that drops one request (a 2 MB body, say) but still answers is judged on that
      // answer; only a target that no longer answers at all stops the run (exit 3).
      if (request.unchecked || !(await stillAnswers())) throw unreachable;
      return noAnswer(method, url, headers, body, unreachable.message);
    }
    timeoutsInARow = 0;
    let json: unknown;
    let tooDeep = false;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // Nothing downstream recurses into a body nested past the limit: it is no body at all.
    if (json !== null && typeof json === 'object' && nestsDeeperThan(json, MAX_JSON_DEPTH)) {
      json = undefined;
      tooDeep = true;
    }
    const record = recordExchange(
      { method, url: url.href, headers },
      body,
      response,
      text,
      options.apiKey,
      json ?? null,
    );
    const exchangeHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      exchangeHeaders[name.toLowerCase()] = value;
    });
    const exchange: Exchange = {
      method,
      path: url.pathname,
      status: response.status,
      headers: exchangeHeaders,
      body: text,
    };
    if (request.unchecked)
      return {
        status: response.status,
        headers: response.headers,
        text,
        json,
        code: record.code,
        ...(tooDeep ? { tooDeep } : {}),
        record,
        result: UNCHECKED,
      };
    const result = options.validator.check(exchange, { tooDeep });
    const operation = result.operation === 'undeclared' ? 'routes' : result.operation;
    const redirect = response.status >= 300 && response.status < 400;
    const location = response.headers.get('location');
    // One evaluation per check and exchange: a list of ten payments with the same broken field is one failure here.
    const firstViolation = new Map<string, (typeof result.violations)[number]>();
    for (const violation of result.violations) {
      if (firstViolation.size >= MAX_VIOLATIONS_PER_EXCHANGE) break;
      if (firstViolation.has(violation.id)) continue;
      firstViolation.set(
        violation.id,
        redirect && violation.id.startsWith('status.')
          ? {
              ...violation,
              actual: `${violation.actual}: a redirect to ${location === null ? 'no Location' : locationOrigin(location, url.href)}, not followed (the check talks to ${url.origin} only)`,
            }
          : violation,
      );
    }
    const checks = [
      ...result.checks,
      ...[...firstViolation.values()].filter(
        (item) => !result.checks.some((check) => check.id === item.id),
      ),
    ];
    const share = checks.length > 0 ? (options.clock.now() - started) / checks.length : 0;
    for (const check of checks) {
      const violation = firstViolation.get(check.id);
      options.ledger.record(
        { id: check.id, title: check.title, element: check.element, operation },
        'schema',
        violation
          ? { expected: violation.expected, actual: violation.actual, exchange: record }
          : undefined,
        share,
      );
    }
    options.onExchange?.(exchange, result);
    return {
      status: response.status,
      headers: response.headers,
      text,
      json,
      code: record.code,
      ...(tooDeep ? { tooDeep } : {}),
      record,
      result,
    };
  }

  return {
    send,
    /** How many requests were sent so far. */
    get sent() {
      return sent;
    },
  };
}

/** The transport type, for modules that receive one. */
export type Transport = ReturnType<typeof createTransport>;
