// Masks secret keys (`sk_test_…`, `sk_live_…`) in any text the SDK shows: error messages, problem bodies, log lines.

/**
 * A real key: `sk_test_` or `sk_live_` followed by key characters. The bare prefix, or advice such
 * as "an sk_… key", is not a key and stays as written.
 */
const secretKeyPattern = /\bsk_(test|live)_[A-Za-z0-9_-]+/g;

/**
 * Replaces every secret key in `text` by its prefix (`sk_test_…` or `sk_live_…`).
 *
 * @example
 * maskSecrets('the key sk_test_abc123 is not valid'); // 'the key sk_test_… is not valid'
 * maskSecrets('Use an sk_… key here'); // unchanged
 */
export function maskSecrets(text: string): string {
  return text.replace(secretKeyPattern, (_match, mode: string) => `sk_${mode}_…`);
}

/**
 * A copy of a JSON value with every `sk_…` key inside its strings masked.
 *
 * @example
 * maskSecretsIn({ detail: 'sk_live_123 refused' }); // { detail: 'sk_… refused' }
 */
export function maskSecretsIn<Value>(value: Value): Value {
  const json = JSON.stringify(value);
  if (json === undefined || !json.includes('sk_')) return value;
  return JSON.parse(maskSecrets(json)) as Value;
}
