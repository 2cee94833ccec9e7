// Masks secrets in any text the kit shows: secret keys (`sk_test_…`, `sk_live_…`) and webhook signing secrets (`whsec_…`). The one masker of the kit: the mock and the contract checks use it too.

/**
 * A real key: `sk_`, its mode (`test`, `live`, …) and `_`, followed by key characters. The bare
 * prefix, or advice such as "an sk_… key", is not a key and stays as written.
 */
const secretKeyPattern = /\bsk_([A-Za-z0-9]+)_[A-Za-z0-9_-]+/g;

/** A webhook signing secret: `whsec_` followed by its base64 characters. */
const signingSecretPattern = /\bwhsec_[A-Za-z0-9+/=_-]+/g;

/**
 * Replaces every secret key in `text` by its prefix (`sk_test_…` or `sk_live_…`), and every
 * webhook signing secret by `whsec_…`.
 *
 * @example
 * maskSecrets('the key sk_test_abc123 is not valid'); // 'the key sk_test_… is not valid'
 * maskSecrets('secret whsec_c2VjcmV0'); // 'secret whsec_…'
 * maskSecrets('Use an sk_… key here'); // unchanged
 */
export function maskSecrets(text: string): string {
  if (!text.includes('sk_') && !text.includes('whsec_')) return text;
  return text
    .replace(secretKeyPattern, (_match, mode: string) => `sk_${mode}_…`)
    .replace(signingSecretPattern, 'whsec_…');
}

/**
 * A copy of a JSON value with every secret inside its strings masked.
 *
 * @example
 * maskSecretsIn({ detail: 'sk_live_123 refused' }); // { detail: 'sk_live_… refused' }
 */
export function maskSecretsIn<Value>(value: Value): Value {
  const json = JSON.stringify(value);
  if (json === undefined || (!json.includes('sk_') && !json.includes('whsec_'))) return value;
  return JSON.parse(maskSecrets(json)) as Value;
}
