// A test's helper run in a process of its own, which a test then kills with SIGKILL: what a CI
// step that ends does to a test run (no afterAll, no exit handler). The helper's module is bundled
// with esbuild into the test's temporary directory (plain node cannot load TypeScript), and its
// import.meta.url kept, so it finds the files it finds in the test.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { killEach } from './child-lifetime.js';
import { temporaryDirectory } from './temporary-directory.js';

/** An owner process that ran a helper: its children (what the helper started) and how to kill it. */
export interface Owner {
  owner: ChildProcess;
  /** The owner's descendants once the helper resolved (Linux /proc), children first. */
  descendants: number[];
  /** What the helper resolved with, as JSON. */
  result: unknown;
  /** SIGKILL, resolved at the owner's exit. */
  kill(): Promise<void>;
  /** Kills the owner and every descendant still there (a test's afterEach, whatever it found). */
  killAll(): Promise<void>;
}

/** The pids of `pid`'s children (Linux /proc; empty once it is gone). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((field) => field !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** The pids of `pid`'s descendants, children first. */
function descendantsOf(pid: number): number[] {
  const found = childrenOf(pid);
  for (let index = 0; index < found.length; index++) {
    found.push(...childrenOf(found[index] as number));
  }
  return found;
}

/**
 * Runs `call` (the source of an async function of the module's exports) on the module `entry` in
 * a new node process, and resolves once it resolved, with the processes it started.
 *
 * @example
 * const run = await ownerRunning(join(here, 'redis-server.ts'), '(m) => m.startTestRedis()');
 * await run.kill(); for (const pid of run.descendants) await stopsRunning(pid);
 */
export async function ownerRunning(
  entry: string,
  call: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Owner> {
  const bundle = join(temporaryDirectory('killed-owner-'), 'owner.mjs');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'error',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(entry).href) },
  });
  const owner = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const module = await import(${JSON.stringify(pathToFileURL(bundle).href)});
       const result = await (${call})(module);
       console.log(JSON.stringify({ result: result === undefined ? null : JSON.parse(JSON.stringify(result)) }));
       setInterval(() => {}, 60_000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  const exited = new Promise<void>((resolve) => owner.once('exit', () => resolve()));
  let output = '';
  const result = await new Promise<unknown>((resolve, reject) => {
    owner.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"result":'));
      if (line !== undefined) resolve((JSON.parse(line) as { result: unknown }).result);
    });
    exited.then(() => reject(new Error(`the owner exited before the helper resolved: ${output}`)));
  });
  const descendants = descendantsOf(owner.pid as number);
  const kill = async () => {
    owner.kill('SIGKILL');
    await exited;
  };
  return {
    owner,
    descendants,
    result,
    kill,
    async killAll() {
      await kill();
      killEach(descendants);
    },
  };
}
