// Tests of the batched line writer: order, one write per turn, and flush on demand.
import { describe, expect, it } from 'vitest';
import { createLineWriter } from './line-writer.js';

describe('createLineWriter', () => {
  it('writes the lines of one turn together, in order', async () => {
    const writes: string[] = [];
    const log = createLineWriter({ write: (chunk: string) => writes.push(chunk) });
    log('first');
    log('second');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    log('third');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['first\nsecond\n', 'third\n']);
  });

  it('flushes pending lines on demand and writes nothing when empty', () => {
    const writes: string[] = [];
    const log = createLineWriter({ write: (chunk: string) => writes.push(chunk) });
    log.flush();
    log('last words');
    log.flush();
    expect(writes).toEqual(['last words\n']);
  });
});
