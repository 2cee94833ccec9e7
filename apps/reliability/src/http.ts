// A small HTTP client for the attacks: keyed requests to the sandbox, JSON answers, a status tally.
import { Agent, request as httpRequest } from 'node:http';

/** One answer: status, lower-cased headers, body text and the parsed JSON (undefined if none). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown> | undefined;
}

/** What to send. `key` becomes `Authorization: Bearer <key>`; an object `body` is sent as JSON. */
export interface Call {
  method?: string;
  path: string;
  key?: string;
  idempotencyKey?: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: Agent;
}

/** A status of 0 means the connection failed or was dropped before an answer. */
export const NO_ANSWER = 0;

/**
 * Sends one request to `baseUrl` and reads the whole answer; a connection error answers status 0
 * with the error's message as text.
 *
 * @example
 * const answer = await call(url, { method: 'POST', path: '/v1/payments', key, body: CREATE });
 * answer.status; // 201
 */
export function call(baseUrl: string, init: Call): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.idempotencyKey !== undefined) headers['idempotency-key'] = init.idempotencyKey;
  let payload: string | undefined;
  if (init.body !== undefined) {
    payload = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve) => {
    const req = httpRequest(
      `${baseUrl}${init.path}`,
      {
        method: init.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers,
        agent: init.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) =>
          resolve({ status: NO_ANSWER, headers: {}, text: error.message, json: undefined }),
        );
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> | undefined;
          try {
            json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? NO_ANSWER, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', (error) =>
      resolve({ status: NO_ANSWER, headers: {}, text: error.message, json: undefined }),
    );
    req.end(payload);
  });
}

/**
 * A valid create-payment body; `capture: false` leaves it AUTHORIZED.
 *
 * @example
 * await call(url, { path: '/v1/payments', key, body: paymentBody(500, false) });
 */
export function paymentBody(amount = 1000, capture = true): Record<string, unknown> {
  return {
    amount,
    currency: 'KZT',
    capture,
    payment_method: { type: 'token', token: 'tok_test_success' },
  };
}

/** How many answers had each status, and the problem `code`s of the 5xx ones. */
export interface Tally {
  byStatus: Record<number, number>;
  /** `<status> <code>` of every 5xx answer (or status 0), counted. */
  serverErrors: Record<string, number>;
  /** 503 `sandbox_full` answers that lacked a `Retry-After` header. */
  fullWithoutRetryAfter: number;
}

/**
 * An empty tally.
 *
 * @example
 * const tally = newTally(); // { byStatus: {}, serverErrors: {}, fullWithoutRetryAfter: 0 }
 */
export function newTally(): Tally {
  return { byStatus: {}, serverErrors: {}, fullWithoutRetryAfter: 0 };
}

/**
 * Counts one answer into `tally`.
 *
 * @example
 * const tally = newTally(); count(tally, answer); tally.byStatus[201]; // 1
 */
export function count(tally: Tally, answer: Answer): void {
  tally.byStatus[answer.status] = (tally.byStatus[answer.status] ?? 0) + 1;
  if (answer.status >= 500 || answer.status === NO_ANSWER) {
    const label = `${answer.status} ${String(answer.json?.code ?? answer.text.slice(0, 60))}`;
    tally.serverErrors[label] = (tally.serverErrors[label] ?? 0) + 1;
    if (answer.json?.code === 'sandbox_full' && answer.headers['retry-after'] === undefined) {
      tally.fullWithoutRetryAfter++;
    }
  }
}

/**
 * The 5xx (and unanswered) labels of a tally other than 503 `sandbox_full`, which is the one
 * refusal a full sandbox may give.
 *
 * @example
 * unexpectedServerErrors(tally); // {} when the sandbox held
 */
export function unexpectedServerErrors(tally: Tally): Record<string, number> {
  return Object.fromEntries(
    Object.entries(tally.serverErrors).filter(([label]) => label !== '503 sandbox_full'),
  );
}

/**
 * Runs `task(index)` for indexes 0..count-1 with at most `concurrency` at once.
 *
 * @example
 * await pool(1000, 20, async (i) => { await call(url, { path: `/v1/payments/pay_${i}`, key }); });
 */
export async function pool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * A keep-alive agent for a flood (a few sockets, reused).
 *
 * @example
 * const agent = floodAgent(); … agent.destroy();
 */
export function floodAgent(sockets = 16): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets });
}

/**
 * Resolves after `ms` of real time (for pacing clients and polling, never as a timed assertion).
 *
 * @example
 * await pause(100);
 */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
