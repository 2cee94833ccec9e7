// .ci/run on a stand-in npm: what it prints, the exit code it keeps, and that a step killed while
// npm test runs leaves no file behind in the temporary directory (it used to keep a log there).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stopsRunning } from './child-lifetime.js';
import { temporaryDirectory } from './temporary-directory.js';

const CI_RUN = fileURLToPath(new URL('../.ci/run', import.meta.url));

/** A directory of stand-ins: npm prints two vitest summaries (one coloured) and exits `status`, or waits when `status` is 'wait'. */
function standIns(status: number | 'wait'): string {
  const bin = temporaryDirectory('ci-run-bin-');
  const npm = `#!/bin/sh
if [ "$1" = "--version" ]; then echo 10.0.0; exit 0; fi
printf '@payment-service/sdk:test:  \\033[2m     Tests \\033[22m \\033[1m\\033[32m5 passed\\033[39m\\033[22m | 2 skipped (7)\\n'
echo '@payment-service/mock:test:       Tests  3 passed | 1 failed (4)'
${status === 'wait' ? 'exec sleep 60' : `exit ${status}`}
`;
  writeFileSync(join(bin, 'npm'), npm);
  chmodSync(join(bin, 'npm'), 0o755);
  // What .ci/run would otherwise install with apt-get.
  for (const tool of ['chromium', 'wrk', 'redis-server', 'haproxy', 'curl']) {
    writeFileSync(join(bin, tool), '#!/bin/sh\n');
    chmodSync(join(bin, tool), 0o755);
  }
  return bin;
}

function environment(bin: string, tmp: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, TMPDIR: tmp };
}

/**
 * A PATH of stand-ins and the few real tools .ci/run uses, without `missing`; apt-get and dpkg
 * record their arguments in `calls`.
 */
function isolatedPath(bin: string, missing: string, calls: string): string {
  for (const tool of ['dirname', 'node']) symlinkSync(execPathOf(tool), join(bin, tool));
  for (const tool of ['apt-get', 'dpkg']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${calls}"\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  rmSync(join(bin, missing));
  return bin;
}

/** Where `tool` is on this machine's PATH. */
function execPathOf(tool: string): string {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
}

describe.skipIf(process.platform === 'win32')('.ci/run', () => {
  it('recovers an interrupted dpkg (an install killed with an earlier step) before it installs what is missing', () => {
    const tmp = temporaryDirectory('ci-run-tmp-');
    const calls = join(tmp, 'calls');
    const run = spawnSync(execPathOf('bash'), [CI_RUN], {
      env: { ...process.env, PATH: isolatedPath(standIns(0), 'wrk', calls), TMPDIR: tmp },
      encoding: 'utf8',
    });
    expect(run.stdout).toContain('installing wrk from Debian');
    expect(readFileSync(calls, 'utf8').split('\n').filter(Boolean)).toEqual([
      'apt-get update -qq',
      'dpkg --configure -a',
      'apt-get install -y -qq --no-install-recommends wrk',
    ]);
    expect(run.status).toBe(0);
    rmSync(calls);
  });

  it("prints npm test's output as it comes, then the summed Tests line last, and keeps npm test's exit code", () => {
    const tmp = temporaryDirectory('ci-run-tmp-');
    const run = spawnSync('bash', [CI_RUN], {
      env: environment(standIns(3), tmp),
      encoding: 'utf8',
    });
    expect(run.status).toBe(3);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Tests: 8 passed, 1 failed, 2 skipped');
    expect(lines.at(-2)).toBe('CI: npm test failed with exit code 3');
    expect(lines.some((line) => line.includes('mock:test:       Tests  3 passed'))).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('passes, with a summary, when npm test passes', () => {
    const run = spawnSync('bash', [CI_RUN], {
      env: environment(standIns(0), temporaryDirectory('ci-run-tmp-')),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Tests: 8 passed, 1 failed, 2 skipped');
  });

  it('leaves nothing in the temporary directory when the step is killed (SIGKILL) while npm test runs', async () => {
    const tmp = temporaryDirectory('ci-run-tmp-');
    const step = spawn('bash', [CI_RUN], {
      env: environment(standIns('wait'), tmp),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    await new Promise<void>((resolve) => {
      step.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('mock:test:')) resolve();
      });
    });
    const exited = once(step, 'exit');
    // The step's whole process group, as a CI runner ends a step.
    process.kill(-(step.pid as number), 'SIGKILL');
    await exited;
    await stopsRunning(step.pid as number);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
