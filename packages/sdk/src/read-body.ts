// Reads an answer's body chunk by chunk within a byte cap (counted decoded) and the attempt's signal.

/** The default of the `maxResponseBytes` option: 4 MiB, far above any answer of the API. */
export const defaultMaxResponseBytes = 4 * 1024 * 1024;

/** The body went past the cap; the reading stopped there and the stream was cancelled. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limitBytes: number,
    readonly observedBytes: number,
  ) {
    super(`the response body exceeds ${limitBytes} bytes`);
  }
}

/**
 * A response whose body was already read, as text: what openapi-fetch parses and the errors
 * carry (status, headers, `json()`, `text()`), with no stream left open.
 *
 * @example
 * const read = new ReadResponse(response, '{"id":"pay_1"}');
 * await read.json(); // { id: 'pay_1' }
 */
export class ReadResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;

  constructor(
    response: Response,
    readonly body: string,
  ) {
    this.status = response.status;
    this.statusText = response.statusText;
    this.ok = response.ok;
    this.headers = response.headers;
  }

  async text(): Promise<string> {
    return this.body;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.body);
  }
}

/**
 * Reads `response`'s body as UTF-8 text, counting the bytes as they arrive (after any
 * `Content-Encoding` was decoded), and cancels the stream as soon as they pass `maxBytes`
 * (throwing a BodyTooLargeError) or `signal` aborts (throwing its reason): a gzip bomb or an
 * endless body costs at most `maxBytes` of memory, and a body that trickles ends at the timeout.
 *
 * @example
 * const text = await readBody(response, defaultMaxResponseBytes, attempt.signal);
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  const cancel = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (true) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => {});
        throw new BodyTooLargeError(maxBytes, size);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
