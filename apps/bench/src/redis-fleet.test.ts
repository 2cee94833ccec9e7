import { describe, expect, it } from 'vitest';
import type { RedisFleetResult, SequentialWork } from './redis-fleet.js';
import { missingFleetPrograms, perRequest } from './redis-fleet.js';
import {
  redisFleetRatios,
  renderRedisFleet,
  roundTripsAgree,
  scriptsPerRequest,
} from './redis-fleet-report.js';
import { counterDelta, parseRedisInfo } from './redis-info.js';
import type { ThroughputResult } from './throughput.js';

const INFO = [
  '# Server',
  'redis_version:7.0.15',
  '# Stats',
  'total_commands_processed:120',
  'total_reads_processed:40',
  '# Commandstats',
  'cmdstat_evalsha:calls=10,usec=100,usec_per_call=10.00,rejected_calls=0,failed_calls=0',
  'cmdstat_hget:calls=30,usec=30',
  'cmdstat_info:calls=4,usec=1',
  'cmdstat_odd:usec=1',
  '',
].join('\r\n');

describe('parseRedisInfo and counterDelta', () => {
  it("reads each command's calls and the totals, ignoring lines without calls", () => {
    const counters = parseRedisInfo(INFO);
    expect(counters).toEqual({
      calls: { evalsha: 10, hget: 30, info: 4 },
      commandsProcessed: 120,
      readsProcessed: 40,
      version: '7.0.15',
    });
    expect(parseRedisInfo('garbage\nno colon')).toEqual({
      calls: {},
      commandsProcessed: 0,
      readsProcessed: 0,
      version: '',
    });
  });

  it('leaves out INFO itself and the read of the last INFO request', () => {
    const before = parseRedisInfo(INFO);
    const after = parseRedisInfo(
      INFO.replace('calls=10,', 'calls=14,')
        .replace('calls=30,', 'calls=42,')
        .replace('calls=4,', 'calls=5,')
        .replace('total_reads_processed:40', 'total_reads_processed:45'),
    );
    expect(counterDelta(before, after)).toEqual({
      calls: { evalsha: 4, hget: 12 },
      commands: 16,
      reads: 4,
    });
  });
});

describe('missingFleetPrograms', () => {
  it('names what is missing in a skip line, and nothing when both are there', () => {
    expect(missingFleetPrograms((program) => `/usr/bin/${program}`)).toBeUndefined();
    const none = (program: string): string => {
      throw new Error(`${program} is not installed`);
    };
    expect(missingFleetPrograms(none)).toBe(
      "Valkey/Redis fleet: redis-server and haproxy not installed (Debian's redis-server and haproxy packages; .ci/run installs them).",
    );
    expect(
      missingFleetPrograms((program) => (program === 'haproxy' ? none(program) : program)),
    ).toMatch(/^Valkey\/Redis fleet: haproxy not installed/);
  });
});

describe('perRequest', () => {
  it('divides by the requests after taking out the idle rate, never below 0', () => {
    const before = parseRedisInfo(INFO);
    const after = parseRedisInfo(
      INFO.replace('evalsha:calls=10,', 'evalsha:calls=30,')
        .replace('hget:calls=30,', 'hget:calls=71,')
        .replace('total_reads_processed:40', 'total_reads_processed:61'),
    );
    // 2 s at 0.5 hget/s and 5 reads/s idle: 41 − 1 hget, 20 − 10 reads.
    const work = perRequest(before, after, 10, 2, { calls: { hget: 0.5, evalsha: 100 }, reads: 5 });
    expect(work.callsPerRequest).toEqual({ hget: 4 });
    expect(work.commandsPerRequest).toBe(4);
    expect(work.readsPerRequest).toBe(1);
    expect(perRequest(before, after, 0, 2, { calls: {}, reads: 0 }).commandsPerRequest).toBe(0);
  });
});

const throughput = (
  server: ThroughputResult['server'],
  endpoint: ThroughputResult['endpoint'],
  requestsPerSecond: number,
  correct = true,
): ThroughputResult => ({
  server,
  endpoint,
  requestsPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  p999Ms: 3,
  rounds: [],
  correct,
  probe: '201 payment',
});

const fleet: RedisFleetResult = {
  throughput: [
    throughput('mock-quiet', 'create', 1000),
    throughput('mock-redis-1', 'create', 500),
    throughput('mock-redis-2', 'create', 750),
    throughput('mock-quiet', 'retrieve', 2000),
    throughput('mock-redis-1', 'retrieve', 1000),
    throughput('mock-redis-2', 'retrieve', 1000, false),
  ],
  work: [
    {
      server: 'mock-redis-1',
      endpoint: 'create',
      requests: 100,
      commandsPerRequest: 9,
      readsPerRequest: 0.5,
      callsPerRequest: { evalsha: 2, hget: 7 },
    },
  ],
  sequential: [
    {
      endpoint: 'create',
      requests: 50,
      failures: 0,
      commandsPerRequest: 9,
      readsPerRequest: 2.04,
      callsPerRequest: { evalsha: 2, hget: 7 },
    },
    {
      endpoint: 'retrieve',
      requests: 50,
      failures: 0,
      commandsPerRequest: 8,
      readsPerRequest: 3,
      callsPerRequest: { eval: 1, evalsha: 2 },
    },
  ],
  idle: [{ server: 'mock-redis-1', commandsPerSecond: 1, readsPerSecond: 2 }],
  redisVersion: '7.0.15',
  haproxyVersion: '2.6.12',
  rounds: 3,
  roundSeconds: 2,
  warmupSeconds: 1,
};

describe('the fleet report', () => {
  it('gives each redis setup against memory and each other, only for correct answers', () => {
    expect(redisFleetRatios(fleet)).toEqual({
      'create.mock-redis-1/mock-quiet': 0.5,
      'create.mock-redis-2/mock-quiet': 0.75,
      'create.mock-redis-2/mock-redis-1': 1.5,
      'retrieve.mock-redis-1/mock-quiet': 0.5,
      'retrieve.mock-redis-2/mock-quiet': null,
      'retrieve.mock-redis-2/mock-redis-1': null,
    });
  });

  it("compares one-at-a-time reads with the test's round trips, and counts scripts", () => {
    expect(fleet.sequential.map(roundTripsAgree)).toEqual([true, false]);
    expect(roundTripsAgree({ ...(fleet.sequential[0] as SequentialWork), failures: 1 })).toBe(
      false,
    );
    expect(scriptsPerRequest({ eval: 1, evalsha: 2, hget: 9 })).toBe(3);
  });

  it('renders its section with the throughput, the work and the round trips', () => {
    const text = renderRedisFleet(fleet).join('\n');
    expect(text.startsWith('\n## Valkey/Redis fleet')).toBe(true);
    expect(text).toContain(
      '| mock-redis-1 | create | 100 | 9.00 | 2.00 | 0.50 | hget 7.00, evalsha 2.00 |',
    );
    expect(text).toContain('| create | 50 | 0 | 9.00 | 2.00 | 2.04 | 2 | yes |');
    expect(text).toContain('| retrieve | 50 | 0 | 8.00 | 3.00 | 3.00 | 1 | **no** |');
  });
});
