// Masks secret keys (`sk_…`) in any text the SDK shows: error messages, problem bodies, log lines.

/** `sk_` and what follows it up to a delimiter; the documented prefix is kept apart. */
const secretKeyPattern = /\bsk_(test_)?[^\s"'`\\,;:<>()[\]{}]+/g;

/**
 * Replaces every `sk_…` secret key in `text` by its documented prefix (`sk_test_…` or `sk_…`).
 *
 * @example
 * maskSecrets('the key sk_test_abc123 is not valid'); // 'the key sk_test_… is not valid'
 */
export function maskSecrets(text: string): string {
  return text.replace(secretKeyPattern, (_match, test: string | undefined) =>
    test === undefined ? 'sk_…' : 'sk_test_…',
  );
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
