// A child process of the fleet (redis-server, HAProxy) started and awaited until it says it is ready.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createChanges } from '../changes.js';
import { tiedToSpawner } from './tied-child.js';

/** The most output kept per process. */
const MAX_OUTPUT_CHARS = 1024 * 1024;

/** A started helper process: its output, and how to stop it. */
export interface FleetProcess {
  pid: number;
  child: ChildProcess;
  alive(): boolean;
  output(): string;
  /** Resolves once `predicate` holds for the output, re-checked after each chunk. */
  untilOutput(predicate: (output: string) => boolean): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s; resolves at its exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash); resolves at its exit. */
  kill9(): Promise<void>;
}

/**
 * Where a Debian program is: on PATH, or in the sbin directories a non-root PATH may lack.
 *
 * @example
 * findProgram('haproxy'); // '/usr/sbin/haproxy'
 */
export function findProgram(name: string): string {
  const directories = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/sbin',
    '/usr/local/sbin',
    '/sbin',
  ];
  for (const directory of directories) {
    if (directory !== '' && existsSync(`${directory}/${name}`)) return `${directory}/${name}`;
  }
  throw new Error(
    `${name} is not installed: install Debian's ${name === 'redis-server' ? 'redis-server' : name} package (.ci/run does it when it is missing)`,
  );
}

/** How to start a process: its environment, its name in errors, and how long it may take. */
export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** What errors call it (default: the command). */
  name?: string;
  /** Default 15 s. */
  timeoutMs?: number;
  /** The most output kept (default 1 MiB): a flooding process must not fill the test's memory. */
  maxOutputChars?: number;
}

/**
 * Spawns `command args` and resolves once its output (stdout and stderr) matches `ready`; rejects
 * with its output when it exits first or is not ready within the timeout.
 *
 * @example
 * const redis = await startProcess('redis-server', ['--port', '6390'], /Ready to accept/);
 */
export function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  options: StartOptions = {},
): Promise<FleetProcess> {
  const name = options.name ?? command;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
  // Tied: a run killed before its hooks cannot leave it running.
  const child = spawn(...tiedToSpawner(command, args), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env === undefined ? process.env : { ...process.env, ...options.env },
  });
  let output = '';
  const changes = createChanges();
  const collect = (chunk: Buffer) => {
    if (output.length < maxOutputChars) output += chunk.toString('utf8');
    changes.notify();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const handle: FleetProcess = {
    untilOutput: (predicate) => changes.until(() => predicate(output)),
    pid: child.pid ?? -1,
    child,
    alive,
    output: () => output,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    },
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} was not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
    changes
      .until(() => ready.test(output))
      .then(() => {
        clearTimeout(timer);
        resolve(handle);
      }, reject);
  });
}
