import { describe, expect, it } from 'vitest';
import { ReplyMeter } from './reply-meter.js';

const feed = (meter: ReplyMeter, ...chunks: string[]) =>
  chunks.map((chunk) => meter.feed(Buffer.from(chunk, 'latin1')));

describe('ReplyMeter', () => {
  it('follows replies of every RESP2 type, whole or cut anywhere, within the bound', () => {
    const stream =
      '+OK\r\n:42\r\n$5\r\nhello\r\n$-1\r\n*-1\r\n*0\r\n-ERR no\r\n' +
      '*3\r\n$3\r\nabc\r\n*2\r\n:1\r\n$0\r\n\r\n$-1\r\n' +
      `$${'x'.repeat(40).length}\r\n${'x'.repeat(40)}\r\n`;
    for (let size = 1; size <= stream.length; size++) {
      const meter = new ReplyMeter(64);
      const chunks: string[] = [];
      for (let at = 0; at < stream.length; at += size) chunks.push(stream.slice(at, at + size));
      expect(feed(meter, ...chunks).filter((problem) => problem !== undefined)).toEqual([]);
    }
  });

  it('counts a whole reply, not each of its parts', () => {
    const meter = new ReplyMeter(50);
    // Three bulks of 10 bytes each: 16 bytes apiece with their framing.
    expect(feed(meter, '*3\r\n$10\r\n0123456789\r\n$10\r\n0123456789\r\n')).toEqual([undefined]);
    expect(feed(meter, '$10\r\n0123456789\r\n')[0]).toBe('a reply of over 50 bytes (a bulk of 10)');
  });

  it('counts each reply from zero once the previous one is complete', () => {
    const meter = new ReplyMeter(40);
    for (let round = 0; round < 100; round++) {
      expect(feed(meter, '*2\r\n$10\r\n0123456789\r\n:1\r\n')).toEqual([undefined]);
    }
  });

  it('refuses a declared bulk over the bound before its data comes', () => {
    const meter = new ReplyMeter(1 << 20);
    expect(feed(meter, '$400000000\r\n')[0]).toBe(
      'a reply of over 1048576 bytes (a bulk of 400000000)',
    );
    expect(new ReplyMeter(1 << 20).feed(Buffer.from('*400000000\r\n'))).toBe(
      'a reply of over 1048576 bytes (an array of 400000000)',
    );
  });

  it('refuses many small elements that add up past the bound, and a line with no end', () => {
    const meter = new ReplyMeter(1000);
    const problems = feed(meter, '*100000\r\n', ...Array.from({ length: 400 }, () => ':1\r\n'));
    expect(problems.find((problem) => problem !== undefined)).toBe(
      'a reply of over 1000 bytes (an array of 100000)',
    );
    const endless = new ReplyMeter(1000);
    const lines = feed(endless, '+', ...Array.from({ length: 20 }, () => 'y'.repeat(100)));
    expect(lines.find((problem) => problem !== undefined)).toBe(
      'a reply of over 1000 bytes (a line)',
    );
  });

  it('refuses bytes that are not RESP2', () => {
    expect(new ReplyMeter(100).feed(Buffer.from('HTTP/1.1 200 OK\r\n'))).toBe(
      'a reply that is not RESP2 (it starts with byte 72)',
    );
    expect(new ReplyMeter(100).feed(Buffer.from('$abc\r\n'))).toMatch(/not a number/);
    expect(new ReplyMeter(100).feed(Buffer.from('*1x2\r\n'))).toMatch(/not a number/);
    expect(new ReplyMeter(100).feed(Buffer.from('$\r\n'))).toMatch(/not a number/);
  });
});
