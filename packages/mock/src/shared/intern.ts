// One copy of the short strings every record repeats (a test token, a method, a collection path).

/** Strings at most this long are shared; longer ones (ids, bodies) are unique anyway. */
export const MAX_INTERNED_CHARS = 32;
/** Distinct strings kept; once full, new ones are returned as they are. */
export const MAX_INTERNED = 1024;

const interned = new Map<string, string>();

/**
 * The one kept copy of a short, often repeated string: a record holding `intern(token)` shares
 * its text with every other record of the same token instead of holding 32 bytes of its own.
 * Bounded: long strings, and new strings once `MAX_INTERNED` are kept, are returned unchanged.
 *
 * @example
 * intern(JSON.parse('"tok_test_success"')) === intern('tok_test_success'); // true (one copy)
 */
export function intern(value: string): string {
  if (value.length > MAX_INTERNED_CHARS) return value;
  const kept = interned.get(value);
  if (kept !== undefined) return kept;
  if (interned.size < MAX_INTERNED) interned.set(value, value);
  return value;
}

/**
 * A copy of a string that shares no memory with another: a hash cut from a longer digest or
 * joined to a prefix is, in V8, a view keeping the longer string alive. Use it for short strings
 * kept for long.
 *
 * @example
 * const fingerprint = flatCopy(`h${digest.slice(0, 22)}`); // 23 characters, nothing else kept
 */
export function flatCopy(value: string): string {
  return Buffer.from(value, 'latin1').toString('latin1');
}
