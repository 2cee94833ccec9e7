// The built proxy started in the background by a shell that then exits (a CI step, nohup, a subshell): it keeps forwarding for the next step, and stops with its reports at SIGTERM.
import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningMockServer, startMockServer } from '@payment-service/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { PARENT_WATCH_INTERVAL_MS } from './parent-watch.js';

const bin = fileURLToPath(new URL('../../bin/payment-service-contract.js', import.meta.url));

/** The build may run beside the tests (turbo runs build and test together): wait for its output. */
async function built() {
  const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      return await access(cli);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Reads `file` until `pattern` matches in it. */
async function waitIn(file: string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const match = pattern.exec(await readFile(file, 'utf8').catch(() => ''));
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${pattern} never appeared in ${file}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the proxy started by a shell that exits', () => {
  let mock: RunningMockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock.close());

  it.each([
    ['a CI step (bash, &)', 'bash', ''],
    ['nohup in a subshell', 'sh', 'nohup '],
  ])(
    'keeps forwarding after %s ends, and writes its reports at SIGTERM',
    async (_how, shell, prefix) => {
      await built();
      const cwd = temporaryDirectory('contract-proxy-detached-');
      const log = join(cwd, 'proxy.log');
      // The step: start the proxy in the background, wait until it listens, then end (on a line from the test).
      const step = spawn(
        shell,
        [
          '-c',
          `${prefix}"${process.execPath}" "${bin}" proxy --target ${mock.url} --port 0 --report json:report.json > proxy.log 2>&1 < /dev/null &
echo $! > proxy.pid
read line`,
        ],
        // No npm in the environment: the proxy was not started by npx.
        {
          cwd,
          stdio: ['pipe', 'ignore', 'inherit'],
          env: { PATH: process.env.PATH ?? '', HOME: cwd },
        },
      );
      const [, url] = await waitIn(log, /proxy (http:\/\/127\.0\.0\.1:\d+) →/);
      const pid = Number(await readFile(join(cwd, 'proxy.pid'), 'utf8'));
      const ended = new Promise((resolve) => step.once('exit', resolve));
      step.stdin.end('done\n');
      await ended;
      // The next step, after the time the old parent watch took to notice (it looked every interval).
      await new Promise((resolve) => setTimeout(resolve, 3 * PARENT_WATCH_INTERVAL_MS));
      expect(alive(pid)).toBe(true);
      const answer = await fetch(`${url}/v1/payments?limit=1`, {
        headers: { authorization: 'Bearer sk_test_detached_proxy_1' },
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      process.kill(pid, 'SIGTERM');
      await waitIn(log, /wrote the json report to report\.json/);
      const report = JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8'));
      expect(report.traffic.exchanges).toBe(1);
      expect(await readFile(log, 'utf8')).not.toContain('the process that started the proxy ended');
    },
  );
});
