// A vitest globalSetup: a package's test run ends when the task runner that started it (turbo, under
// `npm test` and `.ci/run`) is gone. Killed with SIGKILL (a CI step cancelled or timed out), turbo
// passes no signal on, and its tasks run in process groups of their own: vitest went on running
// tests until it next wrote to the closed pipe (39 s on reliability's memory.test.ts), beside the
// next run on the same two cores. Here the run's process group gets SIGTERM within a second.
// Started without turbo (`npx vitest run …`), nothing is watched.
import { readFileSync } from 'node:fs';

/** A running process, told from a later one with its pid by its start time. */
export interface Runner {
  pid: number;
  startTime: string;
}

/** A process's name, parent, state and start time (Linux /proc/<pid>/stat), or undefined. */
function stat(
  pid: number,
): { name: string; ppid: number; state: string; startTime: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    // After the name: state (field 3), ppid (4), …, starttime (22).
    const fields = text.slice(close + 2).split(' ');
    return {
      name: text.slice(text.indexOf('(') + 1, close),
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      startTime: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

/**
 * The nearest ancestor of process `from` whose command name is `name` (Linux; undefined elsewhere
 * or when there is none).
 *
 * @example
 * ancestorNamed('turbo'); // { pid: 4100, startTime: '4173178' } under `npm test`
 */
export function ancestorNamed(name: string, from: number = process.pid): Runner | undefined {
  let pid = stat(from)?.ppid;
  for (let depth = 0; pid !== undefined && pid > 1 && depth < 64; depth++) {
    const info = stat(pid);
    if (info === undefined) return undefined;
    if (info.name === name) return { pid, startTime: info.startTime };
    pid = info.ppid;
  }
  return undefined;
}

/**
 * Whether `runner` still runs: its pid is there, not a zombie, and started when it did.
 *
 * @example
 * stillRuns(runner); // false once turbo was killed
 */
export function stillRuns(runner: Runner): boolean {
  const info = stat(runner.pid);
  return info !== undefined && info.state !== 'Z' && info.startTime === runner.startTime;
}

/**
 * Calls `onGone` once when `runner` no longer runs, looked at every `intervalMs` by an unref'd
 * timer (it keeps nothing alive); returns what stops the watch.
 *
 * @example
 * const stop = watchRunner(runner, () => process.kill(0, 'SIGTERM'));
 */
export function watchRunner(runner: Runner, onGone: () => void, intervalMs = 1000): () => void {
  const timer = setInterval(() => {
    if (stillRuns(runner)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Under turbo, sends SIGTERM to this run's process group (vitest, what started it, and the
 * processes the tests started in it) once turbo is gone; the teardown stops the watch.
 *
 * @example
 * // vitest.config.ts
 * test: { globalSetup: ['../../test-support/temporary-directory-guard.ts', '../../test-support/end-with-runner.ts'] }
 */
export default function setup(): () => void {
  const runner = ancestorNamed('turbo');
  if (runner === undefined) return () => {};
  return watchRunner(runner, () => {
    console.error(
      `test run: turbo (pid ${runner.pid}) is gone, so this run ends (SIGTERM to its process group)`,
    );
    process.kill(0, 'SIGTERM');
  });
}
