import { describe, expect, it } from 'vitest';
import {
  attributeCpuProfile,
  attributeHeapProfile,
  objectSizeOfSample,
  type ProfileFrame,
  placeStack,
  type StageHeapNode,
} from './stage-attribution.js';
import { OTHER_ROWS, STAGE_LABELS, STAGES } from './stage-map.js';
import type { ProbeWindow } from './stage-probe.js';
import { allocatedBytes, type MockBuild, type StageResult, summarizeStages } from './stages.js';
import { renderStages, stageResultValid } from './stages-report.js';
import { CLEAN_LOAD } from './test-support/stage-windows.js';

const DIST = '/repo/packages/mock/dist';
const mock = (module: string, functionName: string): ProfileFrame => ({
  functionName,
  url: `file://${DIST}/${module}.js`,
});
const at = (location: string, functionName: string): ProfileFrame => ({
  functionName,
  url: location.startsWith('node:') ? location : `file:///repo/node_modules/${location}`,
});
const native = (functionName: string): ProfileFrame => ({ functionName, url: '' });

// Stacks, leaf first, as a request's samples have them.
const listener = mock('server/node-server', '');
const admit = mock('server/connections', 'admit');
const honoFetch = at('hono/dist/hono-base.js', 'fetch');
const pipelineEntry = mock('http/pipeline', '');

describe('placeStack', () => {
  it('takes the stage of the innermost mock frame the map places', () => {
    const stack = [
      native('JSON.parse'),
      mock('http/body', 'readAndParse'),
      mock('http/steps/read-body', 'readBody'),
      pipelineEntry,
      honoFetch,
      admit,
      listener,
    ];
    expect(placeStack(stack, DIST)).toEqual({ row: 'body' });
    // Hono's header lookup called by the auth step is auth.
    expect(
      placeStack(
        [at('hono/dist/request.js', 'header'), mock('http/steps/auth', 'authenticateKey')],
        DIST,
      ),
    ).toEqual({ row: 'auth' });
  });

  it('gives a shared helper its caller’s stage', () => {
    const stack = [
      mock('shared/ids', 'base62'),
      mock('shared/ids', 'newPaymentId'),
      mock('service/payments-facet', 'create'),
    ];
    expect(placeStack(stack, DIST)).toEqual({ row: 'operation' });
    expect(
      placeStack([mock('shared/ids', 'newRequestId'), mock('http/exchange', 'openExchange')], DIST),
    ).toEqual({
      row: 'observation',
    });
  });

  it('places samples with no mock stage by Node’s and @hono/node-server’s rules', () => {
    const write = [
      native('writev'),
      at('node:internal/stream_base_commons', 'writevGeneric'),
      at('node:net', 'Socket._writeGeneric'),
      at('node:_http_outgoing', 'end'),
      at('@hono/node-server/dist/index.mjs', 'responseViaCache'),
    ];
    expect(placeStack(write, DIST)).toEqual({ row: 'response' });
    // Under the listener and the connection checks (both inherit): Hono's router is HTTP.
    const route = [at('hono/dist/router/matcher.js', 'match'), honoFetch, admit, listener];
    expect(placeStack(route, DIST)).toEqual({ row: 'http' });
    expect(placeStack([at('node:_http_common', 'parserOnHeadersComplete')], DIST)).toEqual({
      row: 'http',
    });
  });

  it('keeps GC, native work and idle apart, and leaves the probe out', () => {
    expect(placeStack([native('(garbage collector)')], DIST)).toEqual({ row: 'gc' });
    expect(placeStack([native('(program)')], DIST)).toEqual({ row: 'native' });
    // The launcher watch's timer runs beside the requests, in none of them.
    expect(placeStack([mock('cli/launcher-watch', '')], DIST)).toEqual({ row: 'background' });
    expect(placeStack([native('(idle)')], DIST)).toEqual({ skip: 'idle' });
    expect(
      placeStack(
        [{ functionName: 'stop', url: 'file:///repo/apps/bench/dist/stage-probe.js' }],
        DIST,
      ),
    ).toEqual({ skip: 'probe' });
  });

  it('names a module the map lacks, or start-up code, as unattributed', () => {
    expect(
      placeStack([mock('http/new-step', 'check'), mock('http/pipeline', 'run')], DIST),
    ).toEqual({ row: 'unattributed', unplaced: 'http/new-step' });
    expect(placeStack([mock('cli/options', 'parse')], DIST)).toEqual({
      row: 'unattributed',
      unplaced: 'cli/options',
    });
  });
});

describe('attributeCpuProfile', () => {
  it('counts each sample once, by its node’s stack', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: native('(root)'), children: [2, 3, 4, 5] },
        { id: 2, callFrame: native('(idle)') },
        { id: 3, callFrame: native('(garbage collector)') },
        { id: 4, callFrame: mock('http/steps/idempotency', 'takeIdempotencyKey'), children: [6] },
        { id: 5, callFrame: mock('cli/options', 'parse') },
        { id: 6, callFrame: mock('service/idempotency', 'canonicalJson') },
      ],
      samples: [2, 2, 3, 4, 6, 6, 6, 5],
    };
    const result = attributeCpuProfile(profile, DIST);
    expect(result.busy).toBe(6);
    expect(result.idle).toBe(2);
    expect(result.counts.idempotency).toBe(4);
    expect(result.counts.gc).toBe(1);
    expect(result.counts.unattributed).toBe(1);
    expect(result.unplaced).toEqual({ 'cli/options': 1 });
  });
});

describe('the sampling heap profile', () => {
  it('recovers an object’s size from a scaled sample', () => {
    // A 16-byte object at a 1,024-byte interval is sampled as 16 / (1 − e^(−16/1024)) ≈ 1,032.
    const scaled = 16 / -Math.expm1(-16 / 1024);
    expect(objectSizeOfSample(scaled, 1024)).toBeCloseTo(16, 6);
    expect(objectSizeOfSample(100_000, 1024)).toBeCloseTo(100_000, -1);
  });

  it('splits bytes and objects by stage', () => {
    const node = (id: number, frame: ProfileFrame, children: StageHeapNode[] = []) => ({
      id,
      callFrame: frame,
      children,
    });
    const scaled = 32 / -Math.expm1(-32 / 1024);
    const profile = {
      head: node(1, native('(root)'), [
        node(2, mock('http/steps/read-body', 'readBody'), [node(3, native('JSON.parse'))]),
        node(4, at('@hono/node-server/dist/index.mjs', 'responseViaCache')),
      ]),
      samples: [
        { size: scaled, nodeId: 3 },
        { size: scaled, nodeId: 3 },
        { size: scaled, nodeId: 4 },
      ],
    };
    const result = attributeHeapProfile(profile, 1024, DIST);
    expect(result.samples).toBe(3);
    expect(result.bytes.body).toBeCloseTo(2 * scaled, 6);
    expect(result.objects.body).toBeCloseTo((2 * scaled) / 32, 3);
    expect(result.bytes.response).toBeCloseTo(scaled, 6);
  });
});

describe('allocatedBytes', () => {
  it('sums what the heap grew by between GCs and after the last', () => {
    const gc = (usedBefore: number, usedAfter: number) => ({
      type: 'Scavenge',
      costUs: 1,
      usedBefore,
      usedAfter,
    });
    expect(allocatedBytes({ usedHeapStart: 100, usedHeapEnd: 150, gcs: [] })).toBe(50);
    expect(
      allocatedBytes({ usedHeapStart: 100, usedHeapEnd: 90, gcs: [gc(300, 60), gc(260, 40)] }),
    ).toBe(200 + 200 + 50);
  });
});

describe('summarizeStages and renderStages', () => {
  const window = (profiled: boolean, responses: Record<string, number>): ProbeWindow => ({
    request: { profiled, cpuIntervalUs: 100, heapIntervalBytes: 1024 },
    wallMs: 1000,
    cpuUs: 300_000,
    mainThreadCpuUs: 200_000,
    responses,
    gcs: [{ type: 'Scavenge', costUs: 500, usedBefore: 2_000_000, usedAfter: 1_000_000 }],
    usedHeapStart: 1_000_000,
    usedHeapEnd: 1_500_000,
    ...(profiled
      ? {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: native('(root)'), children: [2, 3] },
              { id: 2, callFrame: mock('http/auth', 'authenticate') },
              { id: 3, callFrame: native('(garbage collector)') },
            ],
            samples: [2, 2, 2, 3],
          },
          heapProfile: { head: { id: 1, callFrame: native('(root)'), children: [] }, samples: [] },
        }
      : {}),
  });
  const load = CLEAN_LOAD;
  const place = { round: 1, order: 'listed' as const, position: 0 };
  const build = (role: MockBuild['role'], label = 'd4b14ca'): MockBuild => ({
    role,
    label: role === 'current' ? 'this checkout' : label,
    main: `${DIST}/cli/main.js`,
    dist: DIST,
    cli: `${DIST}/cli.js`,
  });

  it('scales the main thread’s CPU per request by each row’s share of samples', () => {
    const result = summarizeStages(
      build('current'),
      'create',
      [{ probe: window(false, { '2xx': 1000 }), load, place }],
      [{ probe: window(true, { '2xx': 1000 }), load, place }],
      DIST,
    );
    expect(result.cpuUs).toBe(300);
    expect(result.mainThreadUs).toBe(200);
    expect(result.stageUs.auth).toBe(150);
    expect(result.stageUs.gc).toBe(50);
    expect(result.gcPercent).toBeCloseTo((100 * 50) / 300, 6);
    expect(result.allocatedBytes).toBe(1500);
    expect(result.gcPausesPerThousand).toBe(1);
    expect(stageResultValid(result)).toBe(true);
  });

  it('counts a refusal against the column and renders both builds side by side', () => {
    const current = summarizeStages(
      build('current'),
      'create',
      [{ probe: window(false, { '2xx': 999, '5xx': 1 }), load: { ...load, non2xx: 1 }, place }],
      [{ probe: window(true, { '2xx': 1000 }), load, place }],
      DIST,
    );
    expect(current.non2xxServer).toBe(1);
    expect(stageResultValid(current)).toBe(false);
    const previous = summarizeStages(
      build('previous'),
      'create',
      [{ probe: window(false, { '2xx': 1000 }), load, place }],
      [{ probe: window(true, { '2xx': 1000 }), load, place }],
      DIST,
    );
    const sizes = {
      rounds: 1,
      windowSeconds: 1,
      windowRequests: 0,
      warmupRequests: 0,
      cpuIntervalUs: 100,
      heapIntervalBytes: 1024,
    };
    const markdown = renderStages({ sizes, tool: 'wrk', results: [current, previous] }).join('\n');
    expect(markdown).toContain('| stage | d4b14ca µs | this checkout µs | current / previous |');
    for (const row of [...STAGES, ...OTHER_ROWS]) expect(markdown).toContain(STAGE_LABELS[row]);
    expect(markdown).toContain('**invalid**');
  });

  it('renders two builds before the current one, each with its ratio column', () => {
    const measured = (role: MockBuild['role'], label?: string) =>
      summarizeStages(
        build(role, label),
        'retrieve',
        [{ probe: window(false, { '2xx': 1000 }), load, place }],
        [{ probe: window(true, { '2xx': 1000 }), load, place }],
        DIST,
      );
    const results = [
      measured('previous', 'd7ac2fd (before the redesign)'),
      measured('previous', 'd4b14ca (before issue 41)'),
      measured('current'),
    ];
    results[0] = { ...(results[0] as StageResult), cpuUs: 600 };
    const sizes = {
      rounds: 1,
      windowSeconds: 1,
      windowRequests: 0,
      warmupRequests: 0,
      cpuIntervalUs: 100,
      heapIntervalBytes: 1024,
    };
    const lines = renderStages({ sizes, tool: 'wrk', results });
    expect(lines).toContain(
      '| stage | d7ac2fd (before the redesign) µs | d4b14ca (before issue 41) µs | this checkout µs | current / d7ac2fd | current / d4b14ca |',
    );
    expect(lines).toContain('|---|---:|---:|---:|---:|---:|');
    // current 300 µs against 600 and 300.
    expect(lines).toContain(
      '| **total: server CPU per request** | 600 | 300 | 300 | 0.50× | 1.00× |',
    );
    expect(lines.find((line) => line.startsWith('| GC, % of server CPU'))?.split('|')).toHaveLength(
      8,
    );
  });
});
