// The cleaning of a target's text: nothing it sends starts a line, steers a terminal or grows a report.
import { describe, expect, it } from 'vitest';
import { cleanTargetText, MAX_TARGET_TEXT_CHARS } from './untrusted-text.js';

describe('cleanTargetText', () => {
  it('writes line breaks as escapes, so no workflow command can start a line', () => {
    const cleaned = cleanTargetText('x\n::error title=PWNED::owned\r\n::add-mask::PASSED');
    expect(cleaned).not.toMatch(/[\r\n]/);
    expect(cleaned).toBe('x\\u000a::error title=PWNED::owned\\u000d\\u000a::add-mask::PASSED');
  });

  it('escapes ESC, C1 controls, DEL, separators and bidi overrides', () => {
    const hostile = '\u001b[2J\u001b]8;;http://evil\u0007link\u009b\u007f\u2028\u202e\u2066\ufeff';
    const cleaned = cleanTargetText(hostile);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none is left
    expect(cleaned).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e\u2066\ufeff]/u);
    expect(cleaned).toContain('\\u001b[2J');
    expect(cleaned).toContain('\\u202e');
  });

  it('keeps ordinary text, including non-Latin letters, as it is', () => {
    expect(cleanTargetText('Платёж отклонён: card_declined')).toBe(
      'Платёж отклонён: card_declined',
    );
  });

  it('caps the length and says how much was left out', () => {
    const cleaned = cleanTargetText('a'.repeat(1_000_000));
    expect(cleaned.length).toBeLessThan(MAX_TARGET_TEXT_CHARS + 40);
    expect(cleaned).toMatch(/… \(999500 more characters\)$/);
  });

  it('counts escapes in the cap: a million line breaks print at most 500 characters and the note', () => {
    const cleaned = cleanTargetText('\n'.repeat(1_000_000));
    expect(cleaned).toMatch(/^(\\u000a)+… \(\d+ more characters\)$/);
    expect(cleaned.length).toBeLessThan(MAX_TARGET_TEXT_CHARS + 40);
  });

  it('answers as one character at a time would, with or without anything to escape', () => {
    // The reference: every code point escaped when unsafe, kept while the escapes fit the cap.
    const oneByOne = (text: string, maxChars: number) => {
      let shown = '';
      let taken = 0;
      for (const character of text.slice(0, maxChars + 1)) {
        const code = character.codePointAt(0) ?? 0;
        const unsafe =
          code <= 0x1f ||
          (code >= 0x7f && code <= 0x9f) ||
          code === 0x61c ||
          (code >= 0x200b && code <= 0x200f) ||
          (code >= 0x2028 && code <= 0x202e) ||
          (code >= 0x2060 && code <= 0x2069) ||
          code === 0xfeff ||
          (character.length === 1 && code >= 0xd800 && code <= 0xdfff);
        const piece = unsafe ? `\\u${code.toString(16).padStart(4, '0')}` : character;
        if (shown.length + piece.length > maxChars) break;
        shown += piece;
        taken += character.length;
      }
      return taken < text.length ? `${shown}… (${text.length - taken} more characters)` : shown;
    };
    const parts = ['a', 'Ж', '😀', '\ud83d', '\ude00', '\n', '\u202e', '\u0085', ' ', '\ufeff'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    for (let run = 0; run < 2_000; run++) {
      const length = next() % 24;
      const safe = next() % 2 === 0;
      const text = Array.from({ length }, () =>
        safe
          ? (['a', 'Ж', '😀', ' '][next() % 4] as string)
          : (parts[next() % parts.length] as string),
      ).join('');
      for (const maxChars of [0, 1, 2, 5, 11, 40]) {
        expect(cleanTargetText(text, maxChars), JSON.stringify([text, maxChars])).toBe(
          oneByOne(text, maxChars),
        );
      }
    }
  });

  it('never leaves half a surrogate pair at the cut', () => {
    const cleaned = cleanTargetText(`a${'😀'.repeat(10)}`, 4);
    expect(cleaned.startsWith('a😀')).toBe(true);
    expect(cleaned).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/u);
  });
});
