// The installed payment-service-contract CLI in a fresh project: one run to its end, a long-running proxy, and the installed drift proxy as a target.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { toolPath } from './pack.js';

/** A finished run: its exit code and output. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the installed `payment-service-contract …` in the project, through its bin link (what npx
 * runs) or, with `via: 'npx'`, as `npx --no-install payment-service-contract …` (npm's own start
 * costs half a CPU-second a run, so the suites take that path once each); resolves with its exit
 * code and output.
 *
 * @example
 * const run = await contract(project, ['list', '--operation', 'createPayment']);
 */
export function contract(cwd: string, args: string[], via: 'bin' | 'npx' = 'bin'): Promise<Run> {
  const [command, prefix] =
    via === 'npx'
      ? ['npx', ['--no-install', 'payment-service-contract']]
      : [join(cwd, 'node_modules/.bin/payment-service-contract'), []];
  return new Promise((resolve) => {
    execFile(
      ...tiedToSpawner(command, [...prefix, ...args]),
      {
        cwd,
        env: { ...process.env, PATH: toolPath(), NO_COLOR: '1' },
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Resolves with the first match of `pattern` in what `child` writes to `stream`; rejects if it exits first. */
function firstMatch(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp) {
  return new Promise<string>((resolve, reject) => {
    let output = '';
    child[stream]?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before ${pattern}: ${output}`)),
    );
  });
}

/**
 * Starts the installed package's drift proxy (`@payment-service/contract/drift`) in front of
 * `upstream`, breaking `drifts` (default: every drift it knows).
 *
 * @example
 * const drifted = await startDrifted(project, sandbox.url, ['created-at-milliseconds']);
 */
export async function startDrifted(
  cwd: string,
  upstream: string,
  drifts?: string[],
): Promise<{ url: string; child: ChildProcess }> {
  const chosen = drifts === undefined ? 'Object.keys(DRIFTS)' : JSON.stringify(drifts);
  const script = `import('@payment-service/contract/drift').then(async ({ DRIFTS, startDriftProxy }) => {
    const proxy = await startDriftProxy({ upstreamUrl: ${JSON.stringify(upstream)}, drifts: ${chosen} });
    console.log('DRIFTED ' + proxy.url);
  });`;
  const child = spawn(...tiedToSpawner(process.execPath, ['-e', script]), {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await firstMatch(child, 'stdout', /DRIFTED (\S+)/);
  return { url, child };
}

/** A running `payment-service-contract proxy`. */
export interface RunningProxy {
  /** The base URL to give the app. */
  url: string;
  /** The proxy's own pid, as it prints it (`kill -USR2 PID`): npx runs it under npm and a shell. */
  pid: number;
  /**
   * Sends SIGTERM to the proxy's own pid (`proxy`) or to npx (`npx`, as `kill $!` after
   * `npx … &` does), and resolves with npx's exit code and everything written.
   */
  stop(to: 'proxy' | 'npx'): Promise<Run>;
}

/**
 * Starts `npx payment-service-contract proxy --port 0 …args` in the project and resolves once it listens.
 *
 * @example
 * const proxy = await startProxy(project, ['--target', url, '--report', 'junit:proxy.xml']);
 * const { code } = await proxy.stop('SIGTERM');
 */
export async function startProxy(cwd: string, args: string[]): Promise<RunningProxy> {
  const child = spawn(
    ...tiedToSpawner('npx', [
      '--no-install',
      'payment-service-contract',
      'proxy',
      '--port',
      '0',
      ...args,
    ]),
    {
      cwd,
      env: { ...process.env, PATH: toolPath(), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) =>
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)),
    ),
  );
  const [url, pid] = await Promise.all([
    firstMatch(child, 'stderr', /proxy (http:\/\/\S+) →/),
    firstMatch(child, 'stderr', /kill -USR2 (\d+)/).then(Number),
  ]);
  return {
    url,
    pid,
    stop: async (to) => {
      if (to === 'proxy') process.kill(pid, 'SIGTERM');
      else child.kill('SIGTERM');
      return { code: await exited, stdout, stderr };
    },
  };
}
