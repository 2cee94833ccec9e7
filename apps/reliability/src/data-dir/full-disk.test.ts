// A disk that refuses the journal's writes, for real: the CLI's file size limit (RLIMIT_FSIZE) lowered under it, then raised.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type Answer, call, paymentBody } from '../http.js';
import { type Receiver, startReceiver } from '../receiver.js';
import type { Sandbox } from '../sandbox.js';
import { badJournalLines, journalOf, startOnDataDir } from './data-dir-sandbox.js';

const KEY = 'sk_test_crash_full_disk_0123456';

/** util-linux `prlimit`: sets another process's limits without privileges (the soft one, up to the hard one). */
const hasPrlimit = process.platform === 'linux' && spawnSync('prlimit', ['--version']).status === 0;

/** The process's soft limit on the size of a file it writes (`unlimited` or bytes). */
function fileSizeLimit(pid: number): string {
  const result = spawnSync('prlimit', [
    '--pid',
    String(pid),
    '--fsize',
    '--output',
    'SOFT',
    '--noheadings',
  ]);
  return result.stdout.toString('utf8').trim();
}

/** Sets the soft limit: a write past `bytes` into any file fails (EFBIG), as on a full disk. */
function limitFileSize(pid: number, bytes: string): void {
  const result = spawnSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:`]);
  if (result.status !== 0) throw new Error(`prlimit failed: ${result.stderr.toString('utf8')}`);
}

let sandbox: Sandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await sandbox?.kill9();
  await receiver?.close();
});

const create = (idempotencyKey: string): Promise<Answer> =>
  call((sandbox as Sandbox).url, {
    path: '/v1/payments',
    key: KEY,
    idempotencyKey,
    body: paymentBody(900),
  });

/** A few requests, each answered only after the dispatcher had turns to send what it would. */
async function someRequests(count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < count; index++) {
    answers.push(await call((sandbox as Sandbox).url, { path: '/v1/payments', key: KEY }));
  }
  return answers;
}

function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.json?.code).toBe('store_unavailable');
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
}

describe.skipIf(!hasPrlimit)('a full disk under the data directory', () => {
  it('answers 503 store_unavailable with Retry-After, writes no half line, sends no event for what is not stored, and recovers when space returns', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    receiver = await startReceiver('answer');
    sandbox = await startOnDataDir(dataDir);
    const endpoint = await call(sandbox.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: receiver.url },
    });
    expect(endpoint.status).toBe(201);
    const before = await create('before');
    expect(before.status).toBe(201);
    await receiver.until(() => receiver?.received.length === 1);
    // The delivery's log line is stored before this read is answered: nothing else is pending.
    expect((await someRequests(1))[0]?.status).toBe(200);

    const journal = journalOf(dataDir);
    const size = statSync(journal).size;
    const limit = fileSizeLimit(sandbox.pid);
    // Room for 40 bytes: the next change's line is cut short in the middle by the kernel.
    limitFileSize(sandbox.pid, String(size + 40));
    const refused = await create('during');
    expectStoreUnavailable(refused);
    for (const answer of await someRequests(5)) expectStoreUnavailable(answer);
    // Nothing half-written: the cut line was taken back, every line is whole.
    expect(statSync(journal).size).toBe(size);
    expect(badJournalLines(readFileSync(journal))).toEqual([]);
    // The change is not stored (a crash now loses it): no event announces it.
    expect(receiver.received).toHaveLength(1);

    limitFileSize(sandbox.pid, limit);
    const list = (await someRequests(1))[0] as Answer;
    expect(list.status).toBe(200);
    // Stored now: its retry with the same key replays it, and its event goes out.
    const retried = await create('during');
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    await receiver.until(() => receiver?.received.length === 2);
    expect(receiver.received[1]?.data?.object?.id).toBe(retried.json?.id);
    expect(badJournalLines(readFileSync(journal))).toEqual([]);
    await sandbox.untilOutput((output) => output.includes('go through again'));
    expect(sandbox.output().match(/requests are refused until it can/g)).toHaveLength(1);

    // And the directory starts again after a crash, with both payments.
    await sandbox.kill9();
    sandbox = await startOnDataDir(dataDir, ['--quiet']);
    const restarted = await call(sandbox.url, { path: '/v1/payments', key: KEY });
    const ids = ((restarted.json?.data ?? []) as Array<{ id: string }>).map(
      (payment) => payment.id,
    );
    expect(ids.sort()).toEqual([before.json?.id, retried.json?.id].sort());
  });

  it('loses on kill -9 only what it refused, and no event was sent for it', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    receiver = await startReceiver('answer');
    sandbox = await startOnDataDir(dataDir, ['--quiet']);
    await call(sandbox.url, {
      path: '/v1/webhook_endpoints',
      key: KEY,
      body: { url: receiver.url },
    });
    const kept = await create('kept');
    await receiver.until(() => receiver?.received.length === 1);
    await someRequests(1);

    limitFileSize(sandbox.pid, String(statSync(journalOf(dataDir)).size + 40));
    expectStoreUnavailable(await create('lost'));
    for (const answer of await someRequests(5)) expectStoreUnavailable(answer);
    await sandbox.kill9();

    sandbox = await startOnDataDir(dataDir, ['--quiet']);
    const listed = await call(sandbox.url, { path: '/v1/payments', key: KEY });
    const ids = ((listed.json?.data ?? []) as Array<{ id: string }>).map((payment) => payment.id);
    expect(ids).toEqual([kept.json?.id]);
    // Every event the receiver got is about a payment that survived.
    for (const event of receiver.received) expect(ids).toContain(event.data?.object?.id);
    const again = await create('lost');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});
