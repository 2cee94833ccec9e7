// Loaded into a measured server with `node --import` (the mock never imports it): each SIGUSR2 starts or ends a measured window and writes what it saw. Node built-ins only.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** The directory the probe talks through (`STAGE_PROBE_DIR`); without it the probe does nothing. */
const directory = process.env.STAGE_PROBE_DIR;

/** What the harness asks of the next window (`<dir>/next`, JSON). */
export interface ProbeRequest {
  /** Profile the window (CPU and heap sampling), or only count and time it. */
  profiled: boolean;
  /** The CPU profiler's sampling interval, µs. */
  cpuIntervalUs: number;
  /** The heap sampler's mean interval, bytes. */
  heapIntervalBytes: number;
}

/** One GC of a window: its kind, main-thread cost (µs) and the used heap before and after. */
export interface ProbeGc {
  type: string;
  costUs: number;
  usedBefore: number;
  usedAfter: number;
}

/** What one window recorded (`<dir>/window-<n>.json`). */
export interface ProbeWindow {
  request: ProbeRequest;
  wallMs: number;
  /** Process CPU (every thread), µs. */
  cpuUs: number;
  /** CPU of the main (JavaScript) thread, µs, from /proc (10 ms ticks); undefined off Linux. */
  mainThreadCpuUs: number | undefined;
  /** Answers the server finished in the window, by status class ('2xx', '4xx', …). */
  responses: Record<string, number>;
  gcs: ProbeGc[];
  usedHeapStart: number;
  usedHeapEnd: number;
  cpuProfile?: unknown;
  heapProfile?: unknown;
}

interface Running {
  window: number;
  request: ProbeRequest;
  session: Session | undefined;
  gcProfiler: GCProfiler;
  responses: Record<string, number>;
  onFinish(message: unknown): void;
  cpu: NodeJS.CpuUsage;
  mainThreadUs: number | undefined;
  startedMs: number;
  usedHeapStart: number;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of the main thread (its thread id is the process id), µs. */
function mainThreadCpuUs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );
}

function writeAtomically(name: string, text: string): void {
  const path = join(directory as string, name);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

let running: Running | undefined;
let windows = 0;
let busy = false;

async function start(): Promise<void> {
  const request = JSON.parse(
    readFileSync(join(directory as string, 'next'), 'utf8'),
  ) as ProbeRequest;
  let session: Session | undefined;
  if (request.profiled) {
    session = new Session();
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: request.cpuIntervalUs });
    await post(session, 'HeapProfiler.enable');
    await post(session, 'HeapProfiler.startSampling', {
      samplingInterval: request.heapIntervalBytes,
      // Every allocation of the window, not only what is still alive at its end.
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const responses: Record<string, number> = {};
  const onFinish = (message: unknown) => {
    const status = (message as { response?: { statusCode?: number } }).response?.statusCode ?? 0;
    const key = `${Math.floor(status / 100)}xx`;
    responses[key] = (responses[key] ?? 0) + 1;
  };
  subscribe('http.server.response.finish', onFinish);
  const gcProfiler = new GCProfiler();
  gcProfiler.start();
  if (session !== undefined) await post(session, 'Profiler.start');
  windows++;
  running = {
    window: windows,
    request,
    session,
    gcProfiler,
    responses,
    onFinish,
    cpu: process.cpuUsage(),
    mainThreadUs: mainThreadCpuUs(),
    startedMs: performance.now(),
    usedHeapStart: getHeapStatistics().used_heap_size,
  };
  writeAtomically(`started-${windows}`, '');
}

async function stop(state: Running): Promise<void> {
  const cpu = process.cpuUsage(state.cpu);
  const mainNow = mainThreadCpuUs();
  const wallMs = performance.now() - state.startedMs;
  const usedHeapEnd = getHeapStatistics().used_heap_size;
  unsubscribe('http.server.response.finish', state.onFinish);
  const gc = state.gcProfiler.stop() as unknown as {
    statistics: {
      gcType: string;
      cost: number;
      beforeGC: { heapStatistics: { usedHeapSize: number } };
      afterGC: { heapStatistics: { usedHeapSize: number } };
    }[];
  };
  const record: ProbeWindow = {
    request: state.request,
    wallMs,
    cpuUs: cpu.user + cpu.system,
    mainThreadCpuUs:
      mainNow === undefined || state.mainThreadUs === undefined
        ? undefined
        : mainNow - state.mainThreadUs,
    responses: state.responses,
    gcs: (gc?.statistics ?? []).map((entry) => ({
      type: entry.gcType,
      costUs: entry.cost,
      usedBefore: entry.beforeGC.heapStatistics.usedHeapSize,
      usedAfter: entry.afterGC.heapStatistics.usedHeapSize,
    })),
    usedHeapStart: state.usedHeapStart,
    usedHeapEnd,
  };
  if (state.session !== undefined) {
    record.cpuProfile = (await post<{ profile: unknown }>(state.session, 'Profiler.stop')).profile;
    record.heapProfile = (
      await post<{ profile: unknown }>(state.session, 'HeapProfiler.stopSampling')
    ).profile;
    state.session.disconnect();
  }
  writeAtomically(`window-${state.window}.json`, JSON.stringify(record));
}

function toggle(): void {
  if (busy) return;
  busy = true;
  const current = running;
  running = undefined;
  (current === undefined ? start() : stop(current))
    .catch((error: unknown) => {
      writeAtomically(`error-${windows}`, String((error as Error).stack ?? error));
    })
    .finally(() => {
      busy = false;
    });
}

if (directory !== undefined) process.on('SIGUSR2', toggle);
