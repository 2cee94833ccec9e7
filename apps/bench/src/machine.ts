// The machine and the versions a report was measured with.
import { cpus, loadavg, totalmem } from 'node:os';
import { BENCH_DIR, MOCK_DIR, packageVersion } from './paths.js';

/** The machine a run was measured on. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started. */
  loadAverageStart: number;
}

/**
 * Describes this machine.
 *
 * @example
 * describeMachine().cores; // 2
 */
export function describeMachine(): MachineInfo {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageStart: loadavg()[0] ?? 0,
  };
}

/** Versions of what is measured and what measures. */
export interface Versions {
  hono: string;
  nodeServer: string;
  prism: string;
  loadTool: string;
  autocannon: string;
}

/**
 * The installed versions of hono and @hono/node-server (as the mock resolves them) and the tools.
 *
 * @example
 * collectVersions('5.14.2', 'wrk debian/4.1.0-3+b2 [epoll]').hono; // '4.x.y'
 */
export function collectVersions(prism: string | undefined, loadTool: string): Versions {
  return {
    hono: packageVersion('hono', MOCK_DIR) ?? 'unknown',
    nodeServer: packageVersion('@hono/node-server', MOCK_DIR) ?? 'unknown',
    prism: prism ?? 'not installed (skipped)',
    loadTool,
    autocannon: autocannonVersion(),
  };
}

/**
 * The autocannon version this harness depends on.
 *
 * @example
 * autocannonVersion(); // '8.0.0'
 */
export function autocannonVersion(): string {
  return packageVersion('autocannon', BENCH_DIR) ?? 'unknown';
}
