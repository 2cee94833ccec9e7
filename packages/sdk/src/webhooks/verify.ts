// webhooks.verify: checks a delivery's Standard Webhooks signature and timestamp, then parses the event.
import { decodeBase64 } from './encoding.js';
import {
  WebhookMissingHeaderError,
  WebhookPayloadError,
  WebhookSignatureError,
  WebhookTimestampError,
} from './errors.js';
import { importSigningKey, signedContent, type WebhookSecret } from './signature.js';
import type { WebhookEvent, WebhookHeadersInput } from './types.js';

/** Options of `webhooks.verify`. */
export interface VerifyWebhookOptions {
  /**
   * How far `webhook-timestamp` may be from now, before or after, in seconds. Default 300
   * (5 minutes). Older deliveries are refused as replays; newer ones as forged or a clock far off.
   */
  toleranceSeconds?: number;
  /** The current time (a `Date` or epoch milliseconds); for tests. Default `Date.now()`. */
  now?: () => Date | number;
}

/** The default tolerance of `webhook-timestamp`, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The longest `webhook-signature` header verify reads, in characters: room for 80 `v1,` signatures
 * (one is 47 characters), while a secret rotates. A longer header is refused before it is parsed.
 */
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a webhook delivery and returns its event, typed as a union discriminated on `type`.
 * Pass the body exactly as received (a string or bytes, never a re-serialized object), the
 * request's headers (a fetch `Headers` or a plain record, any case) and the endpoint's
 * `whsec_…` secret. Accepts the delivery when any `v1` signature in `webhook-signature`
 * matches (several are sent while a secret rotates; unknown versions are ignored): one HMAC is
 * computed and each signature compared to it in constant time; and when `webhook-timestamp` is
 * within the tolerance of now. An option that is not a finite number (a tolerance of NaN, a
 * `now` that returns an invalid date) throws a `TypeError`: it never turns the timestamp check off.
 * Runs on Node 20+, Deno, Bun and edge runtimes (Web Crypto only).
 *
 * A `webhook-signature` longer than {@link MAX_SIGNATURE_HEADER_LENGTH} characters is refused
 * (WebhookSignatureError) before any signature in it is decoded.
 *
 * Throws a WebhookVerificationError subclass: WebhookMissingHeaderError,
 * WebhookTimestampError, WebhookSignatureError, WebhookSecretError or WebhookPayloadError.
 * Deliveries are at least once: deduplicate on `event.id` (the `webhook-id`).
 *
 * Provenance: that the service notifies status changes is documented (6); the event shape,
 * headers and signing are inferred (Standard Webhooks).
 *
 * @example
 * // A fetch-style handler (Deno, Bun, Cloudflare Workers, Next.js route handlers)
 * export async function POST(request: Request) {
 *   const event = await webhooks.verify(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 *   if (event.type === 'payment.succeeded') await fulfil(event.data.object.id);
 *   return new Response(null, { status: 204 });
 * }
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeadersInput,
  secret: WebhookSecret,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const { toleranceSeconds, nowMs } = checkOptions(options);
  const body = rawBodyBytes(rawBody);
  const key = await importSigningKey(secret);
  const id = requiredHeader(headers, 'webhook-id');
  const timestamp = requiredHeader(headers, 'webhook-timestamp');
  const signatures = requiredHeader(headers, 'webhook-signature');
  if (signatures.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw new WebhookSignatureError(
      `webhook-signature is longer than ${MAX_SIGNATURE_HEADER_LENGTH} characters`,
    );
  }
  checkTimestamp(timestamp, toleranceSeconds, nowMs);

  // One HMAC per call, however many signatures the header lists; each is compared to it in
  // constant time.
  const expected = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, signedContent(id, timestamp, body)),
  );
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const signature = decodeBase64(entry.slice(comma + 1));
    if (signature !== undefined && equalInConstantTime(signature, expected)) matched = true;
  }
  if (!matched) throw new WebhookSignatureError();
  return parseEvent(body);
}

function rawBodyBytes(rawBody: unknown): string | Uint8Array {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new TypeError(
    'webhooks.verify needs the raw request body (a string, Uint8Array or ArrayBuffer) exactly as received; a parsed and re-serialized body will not match its signature',
  );
}

function requiredHeader(headers: WebhookHeadersInput, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    for (const [key, candidate] of Object.entries(headers)) {
      if (key.toLowerCase() === name) {
        value = candidate;
        break;
      }
    }
  }
  // Joined and trimmed only when short: an oversized header is refused by its caller unread.
  const joined = typeof value === 'string' ? value : (value?.join(' ') ?? '');
  const text = joined.length > MAX_SIGNATURE_HEADER_LENGTH ? joined : joined.trim();
  if (text === '') throw new WebhookMissingHeaderError(name);
  return text;
}

/**
 * The tolerance and the time now, checked: replay protection must never be switched off by an
 * option that is not a number (`Number(process.env.X)` with X unset is NaN).
 */
function checkOptions(options: VerifyWebhookOptions): { toleranceSeconds: number; nowMs: number } {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (
    typeof toleranceSeconds !== 'number' ||
    !Number.isFinite(toleranceSeconds) ||
    toleranceSeconds < 0
  ) {
    throw new TypeError(
      `webhooks.verify: toleranceSeconds must be a finite number of seconds ≥ 0; got ${String(toleranceSeconds)}`,
    );
  }
  const current: unknown = options.now === undefined ? Date.now() : options.now();
  const nowMs =
    current instanceof Date
      ? current.getTime()
      : typeof current === 'number'
        ? current
        : Number.NaN;
  if (!Number.isFinite(nowMs)) {
    throw new TypeError(
      `webhooks.verify: now() must return a valid Date or epoch milliseconds; got ${current instanceof Date ? 'an invalid Date' : String(current)}`,
    );
  }
  return { toleranceSeconds, nowMs };
}

/** Whether two byte strings are equal, in a time that depends only on their lengths. */
function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

function checkTimestamp(timestamp: string, tolerance: number, nowMs: number): void {
  if (!/^[0-9]{1,15}$/.test(timestamp)) {
    throw new WebhookTimestampError('webhook-timestamp is not a whole number of seconds');
  }
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor(nowMs / 1000);
  if (seconds < nowSeconds - tolerance) {
    throw new WebhookTimestampError(
      `webhook-timestamp is ${nowSeconds - seconds}s old, more than the ${tolerance}s tolerance`,
      seconds,
    );
  }
  if (seconds > nowSeconds + tolerance) {
    throw new WebhookTimestampError(
      `webhook-timestamp is ${seconds - nowSeconds}s in the future, more than the ${tolerance}s tolerance`,
      seconds,
    );
  }
}

function parseEvent(body: string | Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch (cause) {
    throw new WebhookPayloadError('the body is not UTF-8 JSON', { cause });
  }
  const envelope = event as Partial<Record<'id' | 'type' | 'data', unknown>> | null;
  if (
    typeof envelope !== 'object' ||
    envelope === null ||
    Array.isArray(envelope) ||
    typeof envelope.id !== 'string' ||
    typeof envelope.type !== 'string' ||
    typeof envelope.data !== 'object' ||
    envelope.data === null
  ) {
    throw new WebhookPayloadError('the body is not an event (id, type and data are required)');
  }
  return event as WebhookEvent;
}
