// A full disk under the log, for real: the CLI's stdout or stderr redirected to a 16 KiB tmpfs (as root), or to /dev/full otherwise.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tiedToSpawner } from '../../../../test-support/child-lifetime.js';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type Answer, call, paymentBody } from '../http.js';
import { MOCK_BIN, MOCK_BIN_NODE_FLAGS } from '../sandbox.js';
import { mountSmallDisk, type SmallDisk } from '../test-support/small-disk.js';

const KEY = 'sk_test_full_log_disk_012345678';

// A 16 KiB tmpfs for this file's tests (root only), in a mount namespace of its own: a killed run
// cannot leave it mounted (see small-disk.ts). Without it, /dev/full.
let smallDisk: SmallDisk | undefined;
beforeAll(async () => {
  smallDisk = await mountSmallDisk(temporaryDirectory('psm-small-disk-'), 16 * 1024);
});
afterAll(async () => {
  await smallDisk?.close();
});

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the bin on a data directory with one of its outputs going to `logFd`; resolves once health answers. */
async function startLoggingTo(
  stream: 'stdout' | 'stderr',
  logFd: number,
  flags: string[],
): Promise<{ url: string; other: () => string; exited: () => boolean }> {
  const port = await freePort();
  const started = spawn(
    ...tiedToSpawner(process.execPath, [
      ...MOCK_BIN_NODE_FLAGS,
      MOCK_BIN,
      '--port',
      String(port),
      '--data-dir',
      temporaryDirectory('psm-crash-'),
      ...flags,
    ]),
    {
      stdio: ['ignore', stream === 'stdout' ? logFd : 'pipe', stream === 'stderr' ? logFd : 'pipe'],
    },
  );
  child = started;
  let other = '';
  (stream === 'stdout' ? started.stderr : started.stdout)?.on('data', (chunk: Buffer) => {
    other += chunk.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (started.exitCode !== null) throw new Error(`the sandbox exited at start: ${other}`);
    const health = await call(url, { path: '/_sandbox/health', key: KEY });
    if (health.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    other: () => other,
    exited: () => started.exitCode !== null || started.signalCode !== null,
  };
}

async function creates(url: string, count: number, prefix: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < count; index++) {
    answers.push(
      await call(url, {
        path: '/v1/payments',
        key: KEY,
        idempotencyKey: `${prefix}-${index}`,
        body: paymentBody(700),
      }),
    );
  }
  return answers;
}

async function health(url: string): Promise<Record<string, unknown>> {
  const answer = await call(url, { path: '/_sandbox/health', key: KEY });
  expect(answer.status).toBe(200);
  return answer.json as Record<string, unknown>;
}

describe('a full disk under the log', () => {
  it.skipIf(process.platform !== 'linux')(
    'never stops the sandbox (--ready-json, the log on stderr): lines dropped and counted in health, every request answered and kept, the log resumes when there is room, saying what it lost',
    async () => {
      const disk = smallDisk?.path;
      // Without a disk of our own, /dev/full: every write to it fails with ENOSPC.
      const logPath = disk === undefined ? '/dev/full' : join(disk, 'mock.log');
      const filler = disk === undefined ? undefined : join(disk, 'filler');
      if (filler !== undefined) writeFileSync(filler, Buffer.alloc(8192, 120));
      const logFd = openSync(logPath, 'a');
      try {
        const sandbox = await startLoggingTo('stderr', logFd, ['--ready-json']);
        const answers = await creates(sandbox.url, 300, 'full');
        expect(answers.map((answer) => answer.status).filter((status) => status !== 201)).toEqual(
          [],
        );
        expect(sandbox.exited()).toBe(false);
        const full = await health(sandbox.url);
        expect(full.status).toBe('ok');
        const log = full.log as { dropped_lines: number; last_error: string | null };
        expect(log.last_error).toBe('ENOSPC');
        expect(log.dropped_lines).toBeGreaterThan(100);
        // The last answered create is stored and served.
        const last = answers[answers.length - 1]?.json?.id as string;
        expect((await call(sandbox.url, { path: `/v1/payments/${last}`, key: KEY })).status).toBe(
          200,
        );
        if (disk === undefined || filler === undefined) return;

        // Room again: the next lines are written, after a line saying how many were lost.
        unlinkSync(filler);
        expect((await creates(sandbox.url, 3, 'after'))[2]?.status).toBe(201);
        await health(sandbox.url);
        const text = readFileSync(logPath, 'utf8');
        const note =
          /payment-service-mock: (\d+) log lines dropped \(ENOSPC\) before this one\n/.exec(text);
        expect(note).not.toBeNull();
        expect(Number(note?.[1])).toBeGreaterThan(100);
        expect(text.slice(note?.index).match(/ POST \/v1\/payments 201 /g)?.length).toBe(3);
        // Whole lines only: the one cut by the full disk ends before the note starts.
        expect(text.slice((note?.index ?? 1) - 1, note?.index)).toBe('\n');
      } finally {
        closeSync(logFd);
        if (filler !== undefined) rmSync(filler, { force: true });
        if (disk !== undefined) rmSync(logPath, { force: true });
      }
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'reports the first dropped line once on stderr when stdout is the full one, and keeps serving',
    async () => {
      const disk = smallDisk?.path;
      const logPath = disk === undefined ? '/dev/full' : join(disk, 'stdout.log');
      const filler = disk === undefined ? undefined : join(disk, 'filler');
      if (filler !== undefined) writeFileSync(filler, Buffer.alloc(12288, 120));
      const logFd = openSync(logPath, 'a');
      try {
        const sandbox = await startLoggingTo('stdout', logFd, []);
        const answers = await creates(sandbox.url, 150, 'stdout');
        expect(answers.every((answer) => answer.status === 201)).toBe(true);
        expect(sandbox.exited()).toBe(false);
        expect((await health(sandbox.url)).log).toMatchObject({ last_error: 'ENOSPC' });
        const reports = sandbox.other().match(/cannot write the log to stdout \(ENOSPC\)/g);
        expect(reports).toHaveLength(1);
      } finally {
        closeSync(logFd);
        if (filler !== undefined) rmSync(filler, { force: true });
        if (disk !== undefined) rmSync(join(disk, 'stdout.log'), { force: true });
      }
    },
  );
});

describe('without a log to write', () => {
  it('shows no dropped line in health', async () => {
    const dir = temporaryDirectory('psm-log-');
    const logFd = openSync(join(dir, 'mock.log'), 'a');
    try {
      const sandbox = await startLoggingTo('stdout', logFd, []);
      expect((await health(sandbox.url)).log).toEqual({ dropped_lines: 0, last_error: null });
    } finally {
      closeSync(logFd);
    }
  });
});
