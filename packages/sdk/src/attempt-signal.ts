// One attempt's AbortSignal: fires when the caller aborts or when the attempt's timeout passes.

/** The signal of one attempt, and what ended it. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** Whether the timeout (not the caller) aborted the attempt. */
  timedOut(): boolean;
  /** Stops the timer and detaches from the caller's signal; call when the attempt is over. */
  clear(): void;
}

/**
 * Starts the signal of one attempt, linked to the caller's `signal` and limited to `timeoutMs`.
 *
 * @example
 * const attempt = startAttemptSignal(options.signal, 60_000);
 * try {
 *   await fetch(url, { signal: attempt.signal });
 * } finally {
 *   attempt.clear();
 * }
 */
export function startAttemptSignal(
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete response within ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
