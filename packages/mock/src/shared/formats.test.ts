import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { formats, utcSecondsDateTime } from './formats.js';

const ajvDateTime = (fullFormats['date-time'] as { validate(value: string): boolean }).validate;

describe('formats', () => {
  it("answers date-time as ajv-formats does for the API's shape, and leaves every other text to it", () => {
    const texts = [
      '2026-11-27T22:40:00Z',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2000-02-29T12:00:00Z',
      '1900-02-29T12:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-31T23:58:60Z',
      '2026-12-31T22:59:60Z',
      '2026-12-31T24:00:00Z',
      '2026-12-31T23:60:00Z',
      '2026-00-10T00:00:00Z',
      '2026-13-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ];
    for (const text of texts) expect(utcSecondsDateTime(text), text).toBe(ajvDateTime(text));
    // Not the shape: ajv-formats decides (lower case, offsets, fractions, spaces, other digits).
    for (const text of [
      '2026-11-27t22:40:00Z',
      '2026-11-27T22:40:00z',
      '2026-11-27 22:40:00Z',
      '2026-11-27T22:40:00+01:00',
      '2026-11-27T22:40:00.5Z',
      '2026-11-27T22:40:0xZ',
      '２０２６-11-27T22:40:00Z',
      '',
    ]) {
      expect(utcSecondsDateTime(text), text).toBeUndefined();
      expect(formats['date-time'].validate(text), text).toBe(ajvDateTime(text));
    }
  });

  it('agrees with ajv-formats on 10,000 texts of the shape with random digits', () => {
    let seed = 41;
    const digit = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return String(seed % 10);
    };
    const digits = (count: number) => Array.from({ length: count }, digit).join('');
    let valid = 0;
    const disagreements: string[] = [];
    for (let index = 0; index < 10_000; index++) {
      // Months, days and times near their bounds as often as not.
      const text = `${digits(4)}-${index % 2 === 0 ? `${index % 4 === 0 ? '0' : '1'}${digit()}` : digits(2)}-${['0', '1', '2', '3'][index % 4]}${digit()}T${['0', '1', '2'][index % 3]}${digit()}:${['5', '6', digit()][index % 3]}${digit()}:${['5', '6', digit()][index % 3]}${digit()}Z`;
      const expected = ajvDateTime(text);
      if (formats['date-time'].validate(text) !== expected) disagreements.push(text);
      if (expected) valid++;
    }
    expect(disagreements).toEqual([]);
    // Both answers occur often.
    expect(valid).toBeGreaterThan(1_000);
    expect(valid).toBeLessThan(9_000);
  });
});
