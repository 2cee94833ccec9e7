// Standard Webhooks signing on node:crypto: endpoint secrets and the v1 HMAC-SHA256 signature.
import { createHmac } from 'node:crypto';
import { type RandomSource, systemRandom } from '../shared/ids.js';

const SECRET_PREFIX = 'whsec_';

/** A signing secret as shown to the merchant, and the key bytes it encodes. */
export interface SigningSecret {
  /** `whsec_` followed by the base64 of `key`. */
  secret: string;
  key: Uint8Array;
}

/**
 * A fresh signing secret: 32 random bytes, shown as `whsec_<base64>`.
 *
 * @example
 * newSigningSecret().secret; // 'whsec_…'
 */
export function newSigningSecret(random: RandomSource = systemRandom): SigningSecret {
  const key = Buffer.from(random.bytes(32));
  return { secret: `${SECRET_PREFIX}${key.toString('base64')}`, key };
}

/** The fewest key bytes a secret may hold: the SDK's `webhooks.verify` refuses fewer. */
const MIN_SECRET_BYTES = 16;

/**
 * Reads a `whsec_<base64>` secret (such as the CLI's `--webhook-secret`), or returns undefined
 * when it is not one or holds fewer than 16 bytes of key material.
 *
 * @example
 * parseSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')?.key.length; // 24
 */
export function parseSigningSecret(secret: string): SigningSecret | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length < MIN_SECRET_BYTES ? undefined : { secret, key };
}

/**
 * The `webhook-signature` value of a message: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`.
 *
 * @example
 * signMessage(key, 'evt_1', 1614265330, '{}'); // 'v1,…'
 */
export function signMessage(key: Uint8Array, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}
