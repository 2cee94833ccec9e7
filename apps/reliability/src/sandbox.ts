// Starts the built mock CLI (`payment-service-mock`) as a child process on a free port and watches it.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The mock's CLI as published, through the workspace link. */
export const MOCK_CLI = join(
  dirname(require.resolve('@payment-service/mock/package.json')),
  'dist/cli.js',
);

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
  /** The process's current resident set in MiB (VmRSS). */
  rssMiB(): number;
  /** The process's peak resident set in MiB since it started (VmHWM). */
  peakRssMiB(): number;
  /** Everything it wrote to stdout and stderr so far (the first 4 MiB). */
  output(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
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
 * Spawns `node packages/mock/dist/cli.js --port 0 <flags>` and resolves once it printed the URL
 * it listens on (`listening on <url>` or `Base URL: <url>` in its banner). Rejects with its output when it exits first or says nothing within 20 s.
 *
 * @example
 * const sandbox = await startSandbox(['--quiet', '--memory-budget', '32']);
 * await sandbox.stop();
 */
export function startSandbox(flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Sandbox> {
  const child = spawn(process.execPath, [MOCK_CLI, '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < MAX_OUTPUT_CHARS) output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const pid = child.pid ?? -1;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not print its URL within 20 s:\n${output}`));
    }, 20_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited (${code ?? signal}) before listening:\n${output}`));
    });
    const onData = () => {
      const match = /(?:listening on|Base URL:)\s+(http:\/\/[^\s/]+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      const url = match[1] as string;
      resolve({
        url,
        port: Number(new URL(url).port),
        pid,
        child,
        alive,
        rssMiB: () => procStatusMiB(pid, 'VmRSS'),
        peakRssMiB: () => procStatusMiB(pid, 'VmHWM'),
        output: () => output,
        async stop() {
          if (!alive()) return;
          child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(kill);
        },
      });
    };
    child.stdout?.on('data', onData);
  });
}
