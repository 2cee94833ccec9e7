// The suite's own helpers, on fixed inputs: raw answers, timestamps, tallies, the RSS bound.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MAX_ADVANCE_SECONDS } from './attacks/floods.js';
import { parseRawAnswer } from './attacks/sockets.js';
import { badTimestamps, listedIds, problemDefects } from './expect-helpers.js';
import { count, newTally, unexpectedServerErrors } from './http.js';
import { rssBoundMiB } from './memory.js';
import { treeCpuMs } from './sandbox.js';

const answer = (status: number, json?: Record<string, unknown>, headers = {}) => ({
  status,
  headers,
  text: JSON.stringify(json ?? ''),
  json,
});

describe('reliability helpers', () => {
  it('parses a raw chunked answer', () => {
    const raw =
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nRequest-Id: req_1\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n10\r\n{"code":"bad_h"}\r\n0\r\n\r\n';
    expect(parseRawAnswer(raw)).toEqual({
      status: 400,
      headers: {
        'content-type': 'application/problem+json',
        'request-id': 'req_1',
        'transfer-encoding': 'chunked',
      },
      json: { code: 'bad_h' },
    });
    expect(parseRawAnswer('').status).toBe(0);
  });

  it('finds timestamps outside the spec format, nested', () => {
    const good = '2126-01-01T00:00:00Z';
    expect(badTimestamps({ now: good, data: [{ created_at: good, next_retry_at: null }] })).toEqual(
      [],
    );
    expect(badTimestamps({ data: [{ created_at: '+012020-04-02T12:34Z' }] })).toEqual([
      ['data[0].created_at', '+012020-04-02T12:34Z'],
    ]);
  });

  it('tallies 5xx answers, letting only 503 sandbox_full with Retry-After pass', () => {
    const tally = newTally();
    count(tally, answer(201, { id: 'pay_1' }));
    count(tally, answer(503, { code: 'sandbox_full' }, { 'retry-after': '1' }));
    count(tally, answer(503, { code: 'sandbox_full' }));
    count(tally, answer(500, { code: 'internal_error' }));
    count(tally, { status: 0, headers: {}, text: 'socket hang up', json: undefined });
    expect(tally.byStatus).toEqual({ 0: 1, 201: 1, 500: 1, 503: 2 });
    expect(tally.fullWithoutRetryAfter).toBe(1);
    expect(unexpectedServerErrors(tally)).toEqual({
      '500 internal_error': 1,
      '0 socket hang up': 1,
    });
  });

  it('reads list ids and problem defects', () => {
    expect(listedIds(answer(200, { data: [{ id: 'pay_1' }, { id: 'pay_2' }] }))).toEqual([
      'pay_1',
      'pay_2',
    ]);
    expect(listedIds(answer(404, { code: 'not_found' }))).toEqual([]);
    expect(problemDefects(answer(400, { code: 'x' }, { 'content-type': 'text/plain' }))).toEqual([
      'content-type "text/plain"',
      'no Request-Id header',
    ]);
  });

  it('bounds RSS by the start, twice the budget and 64 MiB', () => {
    expect(rssBoundMiB(70, 32)).toBe(198);
  });
});

describe('the copies of spec facts', () => {
  it('advances the clock by the largest step spec/sandbox.yaml allows', () => {
    const spec = parse(
      readFileSync(new URL('../../../spec/sandbox.yaml', import.meta.url), 'utf8'),
    );
    expect(spec.components.schemas.AdvanceClockRequest.properties.seconds.maximum).toBe(
      MAX_ADVANCE_SECONDS,
    );
  });
});

describe('treeCpuMs', () => {
  it('reads the CPU time a process tree has used, growing as it works', () => {
    const before = treeCpuMs(process.pid);
    const until = performance.now() + 60;
    let spin = 0;
    while (performance.now() < until) spin++;
    expect(spin).toBeGreaterThan(0);
    expect(treeCpuMs(process.pid)).toBeGreaterThan(before);
  });
});
