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

  it('never leaves half a surrogate pair at the cut', () => {
    const cleaned = cleanTargetText(`a${'😀'.repeat(10)}`, 4);
    expect(cleaned.startsWith('a😀')).toBe(true);
    expect(cleaned).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/u);
  });
});
