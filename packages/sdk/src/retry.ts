// The retry policy: which answers are retried, and how long to wait before the next attempt.

/** Retries after the first attempt, unless the client or the request says otherwise. */
export const defaultMaxRetries = 2;
/** The first backoff delay, doubled for every further retry. */
export const initialRetryDelayMs = 500;
/** The longest backoff delay. */
export const maxRetryDelayMs = 8_000;
/** The longest `Retry-After` the SDK waits for; a longer one is thrown to the caller at once. */
export const maxRetryAfterMs = 60_000;

/**
 * Whether an answer is worth another attempt: 408, 409 `idempotency_key_in_use`, 429 and
 * every 5xx. Other 4xx answers say the request itself is wrong, so they are never retried.
 *
 * @example
 * isRetryableStatus(503); // true
 * isRetryableStatus(409, 'invalid_state'); // false
 */
export function isRetryableStatus(status: number, code?: string): boolean {
  if (status === 409) return code === 'idempotency_key_in_use';
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The delay before retry number `retry` (1 for the first retry): `Retry-After` when the
 * answer sent one (in milliseconds; `undefined` when it exceeds {@link maxRetryAfterMs},
 * meaning "do not retry"), else exponential backoff from {@link initialRetryDelayMs} up to
 * {@link maxRetryDelayMs} with jitter (between half and all of the step).
 *
 * @example
 * retryDelayMs(1, undefined, () => 1); // 500
 * retryDelayMs(3, undefined, () => 0); // 1000
 * retryDelayMs(1, 2); // 2000 (Retry-After: 2)
 * retryDelayMs(1, 3600); // undefined: too long to wait
 */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const delay = retryAfterSeconds * 1000;
    return delay <= maxRetryAfterMs ? delay : undefined;
  }
  const step = Math.min(maxRetryDelayMs, initialRetryDelayMs * 2 ** (retry - 1));
  return step * (0.5 + random() / 2);
}

/**
 * Reads `Retry-After` as seconds, strictly (RFC 9110 §10.2.3): delay-seconds (digits only) or an
 * IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) counted from now, 0 once past. Anything else
 * (`-1`, `+5`, `5, 10`, `60.5`, an obsolete date form) is `undefined`: the normal backoff applies.
 *
 * @example
 * parseRetryAfter('3'); // 3
 * parseRetryAfter('60.5'); // undefined
 */
export function parseRetryAfter(value: string | null): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text);
  // An IMF-fixdate is exactly what toUTCString writes: the round trip refuses every other form.
  const date = Date.parse(text);
  if (Number.isNaN(date) || new Date(date).toUTCString() !== text) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * Waits `ms` milliseconds, or rejects with `onAbort()` as soon as `signal` aborts.
 *
 * @example
 * await sleep(500, controller.signal, () => new Error('cancelled'));
 */
export function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  onAbort: () => unknown,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
