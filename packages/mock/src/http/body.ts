// Reads a request body once: media type (415), size (413, declared and actual) and JSON (400).
import type { ProblemInit } from '../shared/problems.js';
import { jsonShapeProblem } from './json-shape.js';

/**
 * The parsed body (and its text, when there was one), or the problem; `text` too for bad JSON.
 * `aborted` says the client closed the connection before its body arrived: nobody reads the answer.
 */
export type BodyResult =
  | { ok: true; body: unknown; text?: string }
  | { ok: false; problem: ProblemInit; text?: string; aborted?: true };

const aborted: BodyResult = {
  ok: false,
  aborted: true,
  problem: {
    code: 'invalid_request',
    detail: 'The connection closed before the whole request body arrived.',
  },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a Content-Type header names JSON: `application/json`, optionally with a UTF-8 charset.
 *
 * @example
 * isJsonMediaType('application/json; charset=utf-8'); // true
 * isJsonMediaType('text/plain'); // false
 */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === 'application/json') return true; // what nearly every client sends
  const [essence = '', ...parameters] = contentType.split(';');
  if (essence.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value.trim().replaceAll('"', '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}

function tooLarge(maxBytes: number): BodyResult {
  return {
    ok: false,
    problem: {
      code: 'body_too_large',
      detail: `The request body is larger than the limit of ${maxBytes} bytes.`,
    },
  };
}

/**
 * Reads and parses a JSON request body, checking the media type, then the size (the declared
 * Content-Length and the bytes actually received), then the JSON syntax.
 *
 * @example
 * const result = await readJsonBody(request, 65_536);
 * if (result.ok) console.log(result.body); // the parsed value, or undefined with no body
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  try {
    return await readAndParse(request, maxBytes);
  } catch {
    // Only reading can throw (parsing is caught below): the client went away mid-body.
    return aborted;
  }
}

async function readAndParse(request: Request, maxBytes: number): Promise<BodyResult> {
  const lengthHeader = request.headers.get('content-length');
  const declaredLength = lengthHeader === null ? undefined : Number(lengthHeader);
  const mayHaveBody =
    declaredLength !== undefined && Number.isFinite(declaredLength)
      ? declaredLength > 0
      : request.body !== null;
  if (!mayHaveBody) return { ok: true, body: undefined };
  const contentType = request.headers.get('content-type');
  if (!isJsonMediaType(contentType)) {
    // `curl -X POST` sends neither Content-Type nor Content-Length: only a non-empty body is refused.
    if (contentType === null && declaredLength === undefined) {
      const bytes = await readBytes(request, maxBytes, undefined);
      if (bytes?.byteLength === 0) return { ok: true, body: undefined };
    }
    return {
      ok: false,
      problem: {
        code: 'unsupported_media_type',
        detail: 'Send the request body as JSON with the header `Content-Type: application/json`.',
      },
    };
  }
  if (declaredLength !== undefined && declaredLength > maxBytes) return tooLarge(maxBytes);
  const bytes = await readBytes(request, maxBytes, declaredLength);
  if (bytes === undefined) return tooLarge(maxBytes);
  if (bytes.byteLength === 0) return { ok: true, body: undefined };
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
    const shape = jsonShapeProblem(text);
    if (shape !== undefined) {
      return {
        ok: false,
        text,
        problem: {
          code: 'invalid_request',
          detail: `${shape}.`,
          errors: [{ param: '', code: 'max_values', message: shape }],
        },
      };
    }
    return { ok: true, body: JSON.parse(text), text };
  } catch {
    return {
      ok: false,
      ...(text === undefined ? {} : { text }),
      problem: {
        code: 'invalid_json',
        detail:
          'The request body is not valid UTF-8 JSON. Send a JSON object with `Content-Type: application/json`.',
      },
    };
  }
}

/** The body's bytes, or undefined as soon as more than `maxBytes` arrive. */
async function readBytes(
  request: Request,
  maxBytes: number,
  declaredLength: number | undefined,
): Promise<Uint8Array | undefined> {
  if (declaredLength !== undefined && Number.isFinite(declaredLength)) {
    // Fast path: @hono/node-server reads the body directly, without building a stream.
    const buffer = new Uint8Array(await request.arrayBuffer());
    return buffer.byteLength > maxBytes ? undefined : buffer;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
