// Reads the tasks of a `turbo run --summarize` file: each task's id and when it ran.
import type { TurboTask } from './by-task.js';

/**
 * The tasks of a turbo run summary (`.turbo/runs/*.json`); refuses anything else, naming what is
 * missing.
 *
 * @example
 * const tasks = readTurboSummary(readFileSync('.turbo/runs/2abc.json', 'utf8'));
 */
export function readTurboSummary(text: string): TurboTask[] {
  const summary = JSON.parse(text) as { tasks?: unknown };
  if (!Array.isArray(summary.tasks)) throw new Error('not a turbo run summary: no "tasks" array');
  return summary.tasks.map((task: unknown, index: number) => {
    const { taskId, execution } = (task ?? {}) as {
      taskId?: unknown;
      execution?: { startTime?: unknown; endTime?: unknown };
    };
    const startMs = execution?.startTime;
    const endMs = execution?.endTime;
    if (typeof taskId !== 'string' || typeof startMs !== 'number' || typeof endMs !== 'number') {
      throw new Error(
        `not a turbo run summary: tasks[${index}] needs a taskId and execution.startTime/endTime`,
      );
    }
    return { taskId, startMs, endMs };
  });
}
