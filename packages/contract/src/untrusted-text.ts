// What a target sends, made safe to print: control characters shown as escapes, and a length cap.

/** The longest piece of one target's text a report or stream shows, in characters (escapes included). */
export const MAX_TARGET_TEXT_CHARS = 500;

// C0 controls and DEL, C1 controls, line and paragraph separators, bidi embeddings, overrides
// and isolates, zero-width characters and the byte-order mark: none may reach a terminal, a
// workflow-command stream or a report as itself.
/** The characters never printed as themselves, as a regular expression class's ranges. */
const UNSAFE_RANGES = String.raw`\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff`;
/** Half a surrogate pair (a cut upstream): not printable either. */
const SURROGATES = String.raw`\ud800-\udfff`;
const UNSAFE = new RegExp(`^[${UNSAFE_RANGES}]$`, 'u');
const LONE_SURROGATE = new RegExp(`^[${SURROGATES}]$`, 'u');
/** Either anywhere in a text (with the u flag, a whole pair is one code point and does not match; half of one does). */
const ANY_UNSAFE = new RegExp(`[${UNSAFE_RANGES}${SURROGATES}]`, 'u');

const asEscape = (character: string) =>
  `\\u${character.codePointAt(0)?.toString(16).padStart(4, '0') ?? ''}`;

/**
 * A target's text (a code, a message, a header value, a body excerpt) made printable on one line:
 * every control, separator and bidi character is written as a `\uXXXX` escape, and what would
 * pass `maxChars` (escapes counted) is cut, saying how many characters were left out. Never
 * returns a line break; the result is at most `maxChars` plus a short suffix.
 *
 * @example
 * cleanTargetText('x\n::error::PWNED'); // 'x\\u000a::error::PWNED'
 * cleanTargetText('a'.repeat(1000), 10); // 'aaaaaaaaaa… (990 more characters)'
 */
export function cleanTargetText(text: string, maxChars: number = MAX_TARGET_TEXT_CHARS): string {
  const head = text.slice(0, maxChars + 1);
  // Nothing to escape (the common case, and a report cleans tens of thousands of texts): the
  // text as it is, or cut at `maxChars` without splitting a pair; what the loop below would give.
  if (!ANY_UNSAFE.test(head)) {
    if (text.length <= maxChars) return text;
    const last = head.charCodeAt(maxChars - 1);
    const cut = last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars;
    return `${head.slice(0, cut)}… (${text.length - cut} more characters)`;
  }
  let shown = '';
  let taken = 0;
  for (const character of head) {
    const unsafe = UNSAFE.test(character) || LONE_SURROGATE.test(character);
    const piece = unsafe ? asEscape(character) : character;
    if (shown.length + piece.length > maxChars) break;
    shown += piece;
    taken += character.length;
  }
  return taken < text.length ? `${shown}… (${text.length - taken} more characters)` : shown;
}
