// What the Redis store remembers of the records it checked: a text with its parts, bounded in characters.
import { describe, expect, it } from 'vitest';
import { RECORD_CHECKS } from '../../test-support/redis-stores.js';
import { CheckedTexts, RecordReading, StoreRecordError } from './reading.js';

describe('CheckedTexts', () => {
  it('knows a text only with the same parts beside it', () => {
    const known = new CheckedTexts(1000);
    known.add('{"id":"pay_1"}', ['pay_1', 'meta']);
    expect(known.has('{"id":"pay_1"}', ['pay_1', 'meta'])).toBe(true);
    expect(known.has('{"id":"pay_1"}', ['pay_2', 'meta'])).toBe(false);
    expect(known.has('{"id":"pay_1"}', ['pay_1'])).toBe(false);
    expect(known.has('{"id":"pay_1"}')).toBe(false);
  });

  it('forgets the oldest texts past its budget, and keeps none longer than a sixteenth of it', () => {
    const known = new CheckedTexts(1600);
    for (let index = 0; index < 30; index++) known.add(`${index}`.padEnd(100, '.'));
    expect(known.has('0'.padEnd(100, '.'))).toBe(false);
    expect(known.has('29'.padEnd(100, '.'))).toBe(true);
    let kept = 0;
    for (let index = 0; index < 30; index++) if (known.has(`${index}`.padEnd(100, '.'))) kept++;
    expect(kept).toBe(16);
    known.add('x'.repeat(101));
    expect(known.has('x'.repeat(101))).toBe(false);
  });
});

describe('RecordReading', () => {
  it('checks a text once: a text that held is not parsed again, one that fails is refused each time', () => {
    const logs: string[] = [];
    const reading = new RecordReading(RECORD_CHECKS, (line) => logs.push(line));
    let checked = 0;
    const check = (value: unknown) => {
      checked++;
      return RECORD_CHECKS.faults(value);
    };
    reading.checkText('{"latency_ms":5}', 'psm:a:1', "a key's faults", check);
    reading.checkText('{"latency_ms":5}', 'psm:a:1', "a key's faults", check);
    expect(checked).toBe(1);
    const bad = () => reading.checkText('{"latency_ms":-5}', 'psm:a:1', "a key's faults", check);
    expect(bad).toThrowError(StoreRecordError);
    expect(bad).toThrowError(
      "the store's key psm:a:1 holds a key's faults whose latency_ms is wrong",
    );
    expect(() => reading.checkText('{', 'psm:a:1', "a key's faults", check)).toThrowError(
      'whose value is wrong: the value must be JSON',
    );
    expect(logs).toHaveLength(2);
  });
});
