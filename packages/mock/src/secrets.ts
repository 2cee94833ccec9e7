// Masks anything that looks like a secret API key before text reaches a log line or a response.

const SECRET_KEY_PATTERN = /sk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/g;

/**
 * Replaces every `sk_<env>_<secret>` in `text` with `sk_<env>_***`.
 *
 * @example
 * maskSecrets('Bearer sk_test_abc123'); // 'Bearer sk_test_***'
 */
export function maskSecrets(text: string): string {
  if (!text.includes('sk_')) return text;
  return text.replace(
    SECRET_KEY_PATTERN,
    (match) => `${match.slice(0, match.indexOf('_', 3))}_***`,
  );
}
