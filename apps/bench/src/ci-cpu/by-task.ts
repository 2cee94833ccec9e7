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
  unattributed: TaskCpu;
  totalSeconds: number;
}

const add = (into: TaskCpu, record: AcctRecord) => {
  into.cpuSeconds += record.cpuSeconds;
  into.byCommand[record.command] = (into.byCommand[record.command] ?? 0) + record.cpuSeconds;
};

/**
 * Charges each process to a task: its ancestor whose parent is the longest-lived `turbo` is the
 * task's root (the package manager turbo started), matched to the task whose start and end are
 * nearest to the root's. A process whose parent had exited before it (an orphan) stays unattributed.
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
  const turbo = records
    .filter((record) => record.command === 'turbo')
    .sort((a, b) => b.elapsedSeconds - a.elapsedSeconds)[0];
  const tasks = turboTasks.map((task) => ({ task, cpu: newTaskCpu(task.taskId) }));
  const unattributed = newTaskCpu('(unattributed)');
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
    const root = turbo === undefined ? undefined : rootOf(record);
    if (root === undefined || tasks.length === 0) {
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
    unattributed,
    totalSeconds: records.reduce((sum, record) => sum + record.cpuSeconds, 0),
  };
}

function newTaskCpu(taskId: string): TaskCpu {
  return { taskId, cpuSeconds: 0, byCommand: {} };
}
