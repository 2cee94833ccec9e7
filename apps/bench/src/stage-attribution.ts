// Splits a V8 CPU profile's samples and a sampling heap profile's allocations into the stages of `stage-map.ts`, by each sample's stack.
import { shortLocation } from './profile-summary.js';
import { mockFrameStage, nodeFrameStage, OTHER_ROWS, STAGES, type StageRow } from './stage-map.js';

/** A frame as V8's profilers report it. */
export interface ProfileFrame {
  functionName: string;
  url: string;
}

/** Samples (or bytes) per row of the stage table. */
export type StageCounts = Record<StageRow, number>;

/** A CPU profile as `Profiler.stop` returns it. */
export interface StageCpuProfile {
  nodes: { id: number; callFrame: ProfileFrame; children?: number[] }[];
  samples?: number[];
}

/** A sampling heap profile as `HeapProfiler.stopSampling` returns it. */
export interface StageHeapProfile {
  head: StageHeapNode;
  samples: { size: number; nodeId: number }[];
}

/** A node of a sampling heap profile's tree. */
export interface StageHeapNode {
  id: number;
  callFrame: ProfileFrame;
  children: StageHeapNode[];
}

/** A profile's samples split into stages, plus what was left out. */
export interface CpuAttribution {
  counts: StageCounts;
  /** Samples in rows (busy samples). */
  busy: number;
  /** Samples where the process was idle, or inside the probe that measures: left out. */
  idle: number;
  probe: number;
  /** Mock modules whose samples went to `unattributed` (start-up code or absent from the map), with counts. */
  unplaced: Record<string, number>;
}

/** Allocations split into stages: estimated bytes and objects per row. */
export interface HeapAttribution {
  bytes: StageCounts;
  objects: StageCounts;
  samples: number;
}

/** Zero for every row. */
export function emptyCounts(): StageCounts {
  const counts = {} as StageCounts;
  for (const row of [...STAGES, ...OTHER_ROWS]) counts[row] = 0;
  return counts;
}

/** What places one stack: the row, or why it is left out. */
type Placement = { row: StageRow; unplaced?: string } | { skip: 'idle' | 'probe' };

/**
 * Places a stack (leaf first): the innermost mock frame the map places gives the stage (a
 * start-up module or one the map lacks: unattributed); with none, the innermost frame Node's
 * and @hono/node-server's rules place, else `http`. GC, `(program)` and idle are their own rows.
 *
 * @example
 * placeStack([{ functionName: 'authenticate', url: 'file:///r/packages/mock/dist/http/auth.js' }], '/r/packages/mock/dist');
 * // { row: 'auth' }
 */
export function placeStack(stack: readonly ProfileFrame[], mockDist: string): Placement {
  const leaf = stack[0];
  if (leaf?.functionName === '(idle)') return { skip: 'idle' };
  if (leaf?.functionName === '(garbage collector)') return { row: 'gc' };
  if (leaf?.functionName === '(program)') return { row: 'native' };
  const mockPrefix = `file://${mockDist.replace(/\/$/, '')}/`;
  for (const frame of stack) {
    if (frame.url.endsWith('/stage-probe.js')) return { skip: 'probe' };
    if (!frame.url.startsWith(mockPrefix)) continue;
    const module = frame.url.slice(mockPrefix.length).replace(/\.js$/, '');
    const stage = mockFrameStage(module, frame.functionName);
    if (stage === 'inherit') continue;
    if (stage === undefined || stage === 'startup')
      return { row: 'unattributed', unplaced: module };
    return { row: stage };
  }
  for (const frame of stack) {
    const stage = nodeFrameStage(shortLocation(frame.url), frame.functionName);
    if (stage !== undefined) return { row: stage };
  }
  return { row: 'http' };
}

/**
 * Splits a CPU profile's samples into stages by their stacks.
 *
 * @example
 * const { counts, busy } = attributeCpuProfile(profile, '/repo/packages/mock/dist');
 * counts.auth / busy; // the share of busy samples spent in auth
 */
export function attributeCpuProfile(profile: StageCpuProfile, mockDist: string): CpuAttribution {
  const parents = new Map<number, number>();
  const frames = new Map<number, ProfileFrame>();
  for (const node of profile.nodes) {
    frames.set(node.id, node.callFrame);
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const placements = new Map<number, Placement>();
  const place = (id: number): Placement => {
    let placement = placements.get(id);
    if (placement === undefined) {
      const stack: ProfileFrame[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
        const frame = frames.get(at);
        if (frame !== undefined) stack.push(frame);
      }
      placement = placeStack(stack, mockDist);
      placements.set(id, placement);
    }
    return placement;
  };
  const result: CpuAttribution = {
    counts: emptyCounts(),
    busy: 0,
    idle: 0,
    probe: 0,
    unplaced: {},
  };
  for (const id of profile.samples ?? []) {
    const placement = place(id);
    if ('skip' in placement) {
      result[placement.skip]++;
      continue;
    }
    result.counts[placement.row]++;
    result.busy++;
    if (placement.unplaced !== undefined) {
      result.unplaced[placement.unplaced] = (result.unplaced[placement.unplaced] ?? 0) + 1;
    }
  }
  return result;
}

/**
 * The size of the object behind one sample of V8's sampling heap profiler: a sample's `size` is
 * already scaled by the chance that an object of that size is sampled at all,
 * `s / (1 − e^(−s/interval))`; this solves that for `s` (bisection).
 *
 * @example
 * Math.round(objectSizeOfSample(1032, 1024)); // 16
 */
export function objectSizeOfSample(scaledSize: number, interval: number): number {
  const scaled = (size: number) => size / -Math.expm1(-size / interval);
  if (scaledSize <= interval) return 0;
  let low = 0;
  let high = scaledSize;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if (scaled(middle) < scaledSize) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * Splits a sampling heap profile's allocations into stages by their stacks: estimated bytes (the
 * samples' scaled sizes) and objects (each sample stands for scaled size / object size objects).
 *
 * @example
 * const { bytes, objects } = attributeHeapProfile(profile, 32_768, '/repo/packages/mock/dist');
 */
export function attributeHeapProfile(
  profile: StageHeapProfile,
  interval: number,
  mockDist: string,
): HeapAttribution {
  const placements = new Map<number, Placement>();
  const walk = (node: StageHeapNode, stack: ProfileFrame[]) => {
    const path = [node.callFrame, ...stack];
    placements.set(node.id, placeStack(path, mockDist));
    for (const child of node.children) walk(child, path);
  };
  walk(profile.head, []);
  const result: HeapAttribution = { bytes: emptyCounts(), objects: emptyCounts(), samples: 0 };
  for (const sample of profile.samples) {
    const placement = placements.get(sample.nodeId);
    if (placement === undefined || 'skip' in placement) continue;
    const size = objectSizeOfSample(sample.size, interval);
    result.bytes[placement.row] += sample.size;
    result.objects[placement.row] += size > 0 ? sample.size / size : 1;
    result.samples++;
  }
  return result;
}
