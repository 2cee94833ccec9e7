// Summarizes a V8 .cpuprofile: the top functions by self time, and self time by package.

/** The parts of a .cpuprofile the summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    hitCount?: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples?: number[];
}

/** One row of the summary: a function (or a package) and its share of busy samples. */
export interface SelfTimeRow {
  name: string;
  /** Percent of busy samples (idle excluded). */
  percent: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
  busySamples: number;
  idlePercent: number;
  topFunctions: SelfTimeRow[];
  byPackage: SelfTimeRow[];
}

/**
 * A short location for a script URL: `hono/dist/…`, `mock/dist/…`, `node:internal/…`.
 *
 * @example
 * shortLocation('file:///x/node_modules/.pnpm/hono@4.1.0/node_modules/hono/dist/hono.js'); // 'hono/dist/hono.js'
 */
export function shortLocation(url: string): string {
  if (url === '') return '';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return url.slice(modules + '/node_modules/'.length);
  const packages = /\/packages\/([^/]+)\/(.*)$/.exec(url);
  if (packages !== null) return `${packages[1]}/${packages[2]}`;
  return url.replace(/^file:\/\//, '');
}

/**
 * The package a location belongs to: `mock`, `hono`, `@hono/node-server`, `ajv`, `node` (Node's
 * own JavaScript) or `(native)` for V8 builtins and C++.
 *
 * @example
 * packageOf('@hono/node-server/dist/index.mjs'); // '@hono/node-server'
 */
export function packageOf(location: string, functionName: string): string {
  if (functionName === '(garbage collector)' || functionName === '(program)') return functionName;
  if (location === '') return '(native)';
  if (location.startsWith('node:')) return 'node';
  const parts = location.split('/');
  return location.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? location);
}

/**
 * Sums self samples per function and per package, largest first; idle samples are left out of
 * the percentages and reported apart.
 *
 * @example
 * const summary = summarizeProfile(JSON.parse(readFileSync('CPU.cpuprofile', 'utf8')), 15);
 * summary.topFunctions[0]; // { name: 'writev node:internal/…:10', percent: 12.5 }
 */
export function summarizeProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += hits;
      continue;
    }
    busy += hits;
    const location = shortLocation(url);
    const name = `${functionName || '(anonymous)'}${location ? ` ${location}:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const owner = packageOf(location, functionName);
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + hits);
  }
  const rows = (map: Map<string, number>, limit: number): SelfTimeRow[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, hits]) => ({ name, percent: busy === 0 ? 0 : (100 * hits) / busy }));
  return {
    busySamples: busy,
    idlePercent: busy + idle === 0 ? 0 : (100 * idle) / (busy + idle),
    topFunctions: rows(byFunction, top),
    byPackage: rows(byPackage, 12),
  };
}
