// Standard Webhooks signing with Web Crypto: the secret's HMAC key and the signed content.
import { decodeBase64, encodeBase64, utf8 } from './encoding.js';
import { WebhookSecretError } from './errors.js';

/** The prefix of a signing secret as the service shows it. */
const secretPrefix = 'whsec_';

/** The fewest bytes of key material a signing secret may hold (the service's hold 32). */
export const MIN_SECRET_BYTES = 16;

/** A signing secret: `whsec_<base64>`, its base64 part alone, or the raw key bytes. */
export type WebhookSecret = string | Uint8Array;

/**
 * Imports a signing secret as a Web Crypto HMAC-SHA256 key usable to sign and verify. Throws a
 * WebhookSecretError (which never contains the secret) when it is not valid, or when it holds
 * fewer than {@link MIN_SECRET_BYTES} bytes of key material (too short to resist guessing).
 *
 * @example
 * const key = await importSigningKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
 */
export async function importSigningKey(secret: WebhookSecret): Promise<CryptoKey> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  if (typeof secret === 'string') {
    const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret;
    bytes = encoded === '' ? undefined : decodeBase64(encoded);
  } else if (secret instanceof Uint8Array && secret.length > 0) {
    bytes = new Uint8Array(secret);
  }
  if (bytes === undefined || bytes.length === 0) throw new WebhookSecretError();
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new WebhookSecretError(
      `the secret must hold at least ${MIN_SECRET_BYTES} bytes of key material (whsec_ and 24 or more base64 characters, as shown at registration); this one holds ${bytes.length}`,
    );
  }
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/**
 * The bytes a signature covers: `{id}.{timestamp}.{body}`, the body exactly as received.
 *
 * @example
 * signedContent('msg_1', '1614265330', '{}'); // bytes of 'msg_1.1614265330.{}'
 */
export function signedContent(
  id: string,
  timestamp: string,
  body: string | Uint8Array,
): Uint8Array<ArrayBuffer> {
  const prefix = utf8(`${id}.${timestamp}.`);
  const bodyBytes = typeof body === 'string' ? utf8(body) : body;
  const content = new Uint8Array(prefix.length + bodyBytes.length);
  content.set(prefix);
  content.set(bodyBytes, prefix.length);
  return content;
}

/**
 * Computes the `v1,<base64>` signature of a message.
 *
 * @example
 * await computeSignature(key, 'msg_1', '1614265330', '{}'); // 'v1,…'
 */
export async function computeSignature(
  key: CryptoKey,
  id: string,
  timestamp: string,
  body: string | Uint8Array,
): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, signedContent(id, timestamp, body));
  return `v1,${encodeBase64(new Uint8Array(mac))}`;
}
