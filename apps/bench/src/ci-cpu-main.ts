// The CPU each turbo task of a run cost: `node dist/ci-cpu-main.js --acct FILE --summary FILE|DIR`, from Linux process accounting.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readAcctV3 } from './ci-cpu/acct.js';
import { cpuByTask, type TaskCpu } from './ci-cpu/by-task.js';
import { readTurboSummary } from './ci-cpu/summary.js';

function newestJson(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const newest = readdirSync(path)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(path, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (newest === undefined) throw new Error(`no turbo run summary (*.json) in ${path}`);
  return newest;
}

function line(cpu: TaskCpu): string {
  const commands = Object.entries(cpu.byCommand)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([command, seconds]) => `${command} ${seconds.toFixed(0)}`)
    .join(', ');
  return `${cpu.cpuSeconds.toFixed(1).padStart(7)}  ${cpu.taskId}  (${commands})`;
}

try {
  const { values } = parseArgs({
    options: { acct: { type: 'string' }, summary: { type: 'string' } },
  });
  if (values.acct === undefined || values.summary === undefined) {
    throw new Error(
      'usage: ci-cpu-main --acct FILE (what `accton FILE` recorded) --summary FILE|DIR (turbo run --summarize: .turbo/runs)',
    );
  }
  const result = cpuByTask(
    readAcctV3(readFileSync(values.acct)),
    readTurboSummary(readFileSync(newestJson(values.summary), 'utf8')),
  );
  console.log(`CPU-seconds by turbo task (user + system, every process the task started):`);
  for (const task of result.tasks) console.log(line(task));
  console.log(`${result.tasksSeconds.toFixed(1).padStart(7)}  sum of tasks`);
  console.log(line(result.unattributed));
  console.log(`${result.totalSeconds.toFixed(1).padStart(7)}  every accounted process`);
} catch (error) {
  console.error(`ci-cpu: ${(error as Error).message}`);
  process.exitCode = 2;
}
