// The ids the SDK puts in a URL path: refused before any request when they could address another path.

/**
 * Checks an id that goes into a request path: a non-empty string that is not `.` or `..` (which
 * URL normalisation would resolve to another path: `capture('..')` would POST `/v1/capture`) and
 * holds no `/`, `\`, `?`, `#` or control character. Throws a `TypeError` naming what was expected.
 *
 * @example
 * checkPathId('pay_123', 'a payment id', 'pay_…'); // 'pay_123'
 * checkPathId('..', 'a payment id', 'pay_…'); // throws TypeError
 */
export function checkPathId(id: unknown, what: string, example: string): string {
  const expected = `${what} must be a non-empty string such as "${example}"`;
  if (typeof id !== 'string')
    throw new TypeError(`${expected}; got ${id === null ? 'null' : typeof id}`);
  if (id === '') throw new TypeError(`${expected}; got an empty string`);
  if (id === '.' || id === '..') {
    throw new TypeError(`${expected}; got "${id}", which would address another path`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  const unsafe = /[/\\?#\u0000-\u001f\u007f]/.exec(id);
  if (unsafe !== null) {
    const shown =
      unsafe[0].charCodeAt(0) < 0x20 || unsafe[0] === '\u007f'
        ? `the control character U+${unsafe[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
        : `"${unsafe[0]}"`;
    throw new TypeError(
      `${expected}, without / \\ ? # or control characters; got one with ${shown}`,
    );
  }
  return id;
}
