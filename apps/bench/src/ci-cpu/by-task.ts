// Charges every exited process of a turbo run to the task that started it, through its parents.
import type { AcctRecord } from './acct.js';

/** A task of `turbo run --summarize`: its id and when it ran (milliseconds since the epoch). */
export interface TurboTask {
  taskId: string;
  startMs: number;
  endMs: number;
}

/** What one task cost: CPU in total and per command name. */
export interface TaskCpu {
  taskId: string;
  cpuSeconds: number;
  byCommand: Record<string, number>;
}

/** The attribution of a run: each task's CPU, and what could not be traced to one. */
export interface CpuByTask {
  tasks: TaskCpu[];
  /** The sum of the tasks' CPU: the run's work. */
  tasksSeconds: number;
  unattributed: TaskCpu;
  /** Every accounted process, the machine's other work included. */
  totalSeconds: number;
}

const add = (into: TaskCpu, record: AcctRecord) => {
  into.cpuSeconds += record.cpuSeconds;
  into.byCommand[record.command] = (into.byCommand[record.command] ?? 0) + record.cpuSeconds;
};

/** How far (in seconds, start and end together) the run's turbo may be from the summary's window. */
export const TURBO_MATCH_SLACK_SECONDS = 30;

/**
 * The `turbo` process that ran the summarized tasks: the one whose start and end are nearest to
 * the first task's start and the last task's end. Other turbos on the machine (a parallel run, a
 * test that starts turbo, another engineer's build) are not it, however long they lived. Refuses
 * when no turbo lived through the window, naming the nearest.
 *
 * @example
 * const turbo = runTurbo(readAcctV3(readFileSync('/tmp/pacct')), readTurboSummary(summaryText));
 */
export function runTurbo(
  records: AcctRecord[],
  turboTasks: TurboTask[],
  slackSeconds = TURBO_MATCH_SLACK_SECONDS,
): AcctRecord {
  if (turboTasks.length === 0) throw new Error('the turbo run summary has no tasks');
  const start = Math.min(...turboTasks.map((task) => task.startMs)) / 1000;
  const end = Math.max(...turboTasks.map((task) => task.endMs)) / 1000;
  const distance = (record: AcctRecord) =>
    Math.abs(record.startSeconds - start) +
    Math.abs(record.startSeconds + record.elapsedSeconds - end);
  const turbos = records.filter((record) => record.command === 'turbo');
  const nearest = turbos.reduce<AcctRecord | undefined>(
    (best, record) => (best === undefined || distance(record) < distance(best) ? record : best),
    undefined,
  );
  if (nearest === undefined) {
    throw new Error('no turbo process in the accounting file: was accton on for the whole run?');
  }
  if (distance(nearest) > slackSeconds) {
    throw new Error(
      `no turbo process ran the summarized tasks (${(end - start).toFixed(0)} s from ${new Date(start * 1000).toISOString()}): ` +
        `the nearest, pid ${nearest.pid}, is ${distance(nearest).toFixed(0)} s off; is the summary from the accounted run?`,
    );
  }
  return nearest;
}

/**
 * Charges each process to a task: its ancestor whose parent is the run's `turbo` (see
 * {@link runTurbo}) is the task's root (the package manager turbo started), matched to the task
 * whose start and end are nearest to the root's. A process outside that turbo's tree (another
 * run, an orphan whose parent had exited before it, turbo itself) stays unattributed.
 *
 * @example
 * const { tasks } = cpuByTask(readAcctV3(readFileSync('/tmp/pacct')), summary.tasks.map(toTurboTask));
 */
export function cpuByTask(records: AcctRecord[], turboTasks: TurboTask[]): CpuByTask {
  const byPid = new Map<number, AcctRecord[]>();
  for (const record of records) {
    const same = byPid.get(record.pid) ?? [];
    same.push(record);
    byPid.set(record.pid, same);
  }
  // A pid may be reused: the parent is the record of that pid alive when the child started.
  const parentOf = (record: AcctRecord) =>
    byPid
      .get(record.ppid)
      ?.find(
        (candidate) =>
          candidate.startSeconds <= record.startSeconds + 1 &&
          candidate.startSeconds + candidate.elapsedSeconds >= record.startSeconds - 1,
      );
  const turbo = runTurbo(records, turboTasks);
  const tasks = turboTasks.map((task) => ({ task, cpu: newTaskCpu(task.taskId) }));
  const unattributed = newTaskCpu(
    "(outside the run's tasks: turbo itself, orphans, other work on the machine)",
  );
  const taskOfRoot = new Map<AcctRecord, TaskCpu>();
  const rootOf = (record: AcctRecord): AcctRecord | undefined => {
    let current = record;
    for (let depth = 0; depth < 64; depth++) {
      const parent = parentOf(current);
      if (parent === undefined) return undefined;
      if (parent === turbo) return current;
      current = parent;
    }
    return undefined;
  };
  for (const record of records) {
    const root = rootOf(record);
    if (root === undefined) {
      add(unattributed, record);
      continue;
    }
    let cpu = taskOfRoot.get(root);
    if (cpu === undefined) {
      const distance = ({ task }: { task: TurboTask }) =>
        Math.abs(task.startMs / 1000 - root.startSeconds) +
        Math.abs(task.endMs / 1000 - (root.startSeconds + root.elapsedSeconds));
      cpu = tasks.reduce((best, entry) => (distance(entry) < distance(best) ? entry : best)).cpu;
      taskOfRoot.set(root, cpu);
    }
    add(cpu, record);
  }
  return {
    tasks: tasks.map(({ cpu }) => cpu).sort((a, b) => b.cpuSeconds - a.cpuSeconds),
    tasksSeconds: tasks.reduce((sum, { cpu }) => sum + cpu.cpuSeconds, 0),
    unattributed,
    totalSeconds: records.reduce((sum, record) => sum + record.cpuSeconds, 0),
  };
}

function newTaskCpu(taskId: string): TaskCpu {
  return { taskId, cpuSeconds: 0, byCommand: {} };
}
