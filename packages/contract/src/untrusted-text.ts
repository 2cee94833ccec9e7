// What a target sends, made safe to print: control characters shown as escapes, and a length cap.

/** The longest piece of one target's text a report or stream shows, in characters (escapes included). */
export const MAX_TARGET_TEXT_CHARS = 500;

// C0 controls and DEL, C1 controls, line and paragraph separators, bidi embeddings, overrides
// and isolates, zero-width characters and the byte-order mark: none may reach a terminal, a
// workflow-command stream or a report as itself.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /^[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]$/u;
/** Half a surrogate pair (a cut upstream): not printable either. */
const LONE_SURROGATE = /^[\ud800-\udfff]$/u;

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
  let shown = '';
  let taken = 0;
  for (const character of text.slice(0, maxChars + 1)) {
    const unsafe = UNSAFE.test(character) || LONE_SURROGATE.test(character);
    const piece = unsafe ? asEscape(character) : character;
    if (shown.length + piece.length > maxChars) break;
    shown += piece;
    taken += character.length;
  }
  return taken < text.length ? `${shown}… (${text.length - taken} more characters)` : shown;
}
