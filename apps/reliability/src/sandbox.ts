// Starts the built mock CLI (`payment-service-mock`) as a child process on a free port and watches it.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startProcess } from './fleet/processes.js';

const require = createRequire(import.meta.url);

/** The mock's CLI as published, through the workspace link. */
export const MOCK_CLI = join(
  dirname(require.resolve('@payment-service/mock/package.json')),
  'dist/cli.js',
);

/** The published `payment-service-mock` bin (its shebang sets the heap limit; see MOCK_BIN_NODE_FLAGS). */
export const MOCK_BIN = join(
  dirname(require.resolve('@payment-service/mock/package.json')),
  'bin/payment-service-mock.js',
);

/** The node flags of the bin's shebang: given, the CLI runs in one process (no relaunch). */
export const MOCK_BIN_NODE_FLAGS = ['--max-old-space-size=384'];

/** How to start the CLI: which script, with which node flags, under which wrapper command. */
export interface LaunchOptions {
  /** The script node runs (default MOCK_CLI). */
  script?: string;
  /** Node's own flags, before the script. */
  nodeFlags?: string[];
  /** A command that execs node with the rest (such as `prlimit --fsize=…:`), keeping its pid. */
  wrapper?: string[];
}

/** The most output kept per process (the log test reads it; floods must not fill the test's memory). */
const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;

/** A running CLI process. */
export interface Sandbox {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** True while the process has not exited. */
  alive(): boolean;
  /** The current resident set of the sandbox's processes in MiB (VmRSS, summed over the tree). */
  rssMiB(): number;
  /** The peak resident set since it started in MiB (VmHWM, summed over the tree). */
  peakRssMiB(): number;
  /** CPU time the sandbox's processes have used so far, in ms (user + system, 10 ms ticks). */
  cpuMs(): number;
  /** Everything it wrote to stdout and stderr so far (the first 4 MiB). */
  output(): string;
  /** Resolves once `predicate` holds for the output, re-checked after each chunk it writes. */
  untilOutput(predicate: (output: string) => boolean): Promise<void>;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Sends SIGKILL (a crash: nothing is flushed or closed) and waits for the exit. */
  kill9(): Promise<void>;
}

/**
 * Reads one `kB` field of /proc/<pid>/status, in MiB (Linux).
 *
 * @example
 * procStatusMiB(process.pid, 'VmRSS'); // e.g. 52.3
 */
export function procStatusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (match === null) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * The pid and every descendant's (Linux /proc children lists), parents first. The CLI relaunches
 * node once with a heap limit, so the sandbox is a process tree.
 *
 * @example
 * processTree(process.pid); // [process.pid, …]
 */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    const current = tree[index] as number;
    try {
      const children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8');
      for (const child of children.trim().split(/\s+/)) if (child !== '') tree.push(Number(child));
    } catch {
      // Gone meanwhile: it has no children to count.
    }
  }
  return tree;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time used by a process and its descendants so far, in ms (utime + stime from
 * /proc/<pid>/stat; Linux counts it in 10 ms ticks).
 *
 * @example
 * const before = treeCpuMs(sandbox.pid); // … after the requests: treeCpuMs(sandbox.pid) - before
 */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * One `kB` field summed over a process and its descendants, in MiB: what the whole sandbox holds
 * (for VmHWM, the sum of each process's peak: an upper bound of the tree's peak).
 *
 * @example
 * treeStatusMiB(sandbox.pid, 'VmRSS'); // e.g. 140.2
 */
export function treeStatusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      total += procStatusMiB(member, field);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return total;
}

/**
 * Spawns `node packages/mock/dist/cli.js --port 0 <flags>` (or as `launch` says) and resolves once it printed the URL
 * it listens on (`listening on <url>` or `Base URL: <url>` in its banner). Rejects with its output when it exits first or says nothing within 20 s.
 *
 * @example
 * const sandbox = await startSandbox(['--quiet', '--memory-budget', '32']);
 * await sandbox.stop();
 */
export async function startSandbox(
  flags: string[] = [],
  env: NodeJS.ProcessEnv = {},
  launch: LaunchOptions = {},
): Promise<Sandbox> {
  const node = [
    process.execPath,
    ...(launch.nodeFlags ?? []),
    launch.script ?? MOCK_CLI,
    '--port',
    '0',
    ...flags,
  ];
  const [command, ...args] = [...(launch.wrapper ?? []), ...node] as [string, ...string[]];
  const listening = /(?:listening on|Base URL:)\s+(http:\/\/[^\s/]+)/;
  const started = await startProcess(command, args, listening, {
    env,
    name: 'the CLI',
    timeoutMs: 20_000,
    maxOutputChars: MAX_OUTPUT_CHARS,
  });
  const url = listening.exec(started.output())?.[1] as string;
  const pid = started.pid;
  return {
    ...started,
    url,
    port: Number(new URL(url).port),
    rssMiB: () => treeStatusMiB(pid, 'VmRSS'),
    peakRssMiB: () => treeStatusMiB(pid, 'VmHWM'),
    cpuMs: () => treeCpuMs(pid),
  };
}
