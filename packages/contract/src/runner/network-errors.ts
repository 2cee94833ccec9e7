// Turns a failed fetch into one clear sentence: refused connection, unknown host, TLS error or time-out.
import { TargetUnreachableError } from '../errors.js';

const TLS_CODES =
  /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_)/;

function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const value = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof value.code === 'string') return value.code;
    if (Array.isArray(value.errors) && value.errors.length > 0) {
      const inner = codeOf(value.errors[0]);
      if (inner) return inner;
    }
    current = value.cause;
  }
  return undefined;
}

/**
 * Describes why a request to `url` failed, as a TargetUnreachableError (exit 3).
 *
 * @example
 * describeNetworkError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), new URL('http://127.0.0.1:9'), 30_000).message;
 * // 'could not connect to 127.0.0.1:9: connection refused (is the target running?)'
 */
export function describeNetworkError(
  error: unknown,
  url: URL,
  timeoutMs: number,
): TargetUnreachableError {
  const host = url.host;
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'TimeoutError') {
    return new TargetUnreachableError(
      `${host} did not answer within ${timeoutMs / 1000} s (--timeout)`,
    );
  }
  const code = codeOf(error);
  if (code === 'ECONNREFUSED') {
    return new TargetUnreachableError(
      `could not connect to ${host}: connection refused (is the target running?)`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new TargetUnreachableError(`could not resolve the host ${url.hostname} (${code})`);
  }
  if (code && TLS_CODES.test(code)) {
    return new TargetUnreachableError(`TLS error talking to ${host}: ${code}`);
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new TargetUnreachableError(`${host} closed the connection (${code})`);
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TargetUnreachableError(`connecting to ${host} timed out (${code})`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TargetUnreachableError(
    `request to ${host} failed: ${message}${code ? ` (${code})` : ''}`,
  );
}
