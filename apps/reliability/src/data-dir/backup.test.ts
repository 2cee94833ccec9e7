// A backup of a running sandbox's directory, as the README says to take it: under load, then started from while the original still runs.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { tiedToSpawner } from '../fleet/tied-child.js';
import { type Answer, call, paymentBody } from '../http.js';
import { MOCK_BIN, MOCK_BIN_NODE_FLAGS, type Sandbox } from '../sandbox.js';
import { startOnDataDir } from './data-dir-sandbox.js';

const KEY = 'sk_test_backup_running_0123456789';
const running: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.kill9();
});

/** Runs `payment-service-mock backup …` (without blocking the load) and resolves with its exit and output. */
function backup(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    ...tiedToSpawner(process.execPath, [...MOCK_BIN_NODE_FLAGS, MOCK_BIN, 'backup', ...args]),
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

const create = (url: string, idempotencyKey: string): Promise<Answer> =>
  call(url, { path: '/v1/payments', key: KEY, idempotencyKey, body: paymentBody(1200) });

describe('payment-service-mock backup', () => {
  it('copies a running sandbox under load: every create answered before it began is in the copy, none half-written, and a sandbox starts from it while the original still runs', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const original = await startOnDataDir(dataDir, ['--quiet']);
    running.push(original);
    const before: Answer[] = [];
    for (let index = 0; index < 40; index++)
      before.push(await create(original.url, `before-${index}`));
    expect(before.every((answer) => answer.status === 201)).toBe(true);

    // Creates keep coming, four at a time, while the backup is taken.
    let stop = false;
    const during: Answer[] = [];
    const load = Array.from({ length: 4 }, async (_, client) => {
      for (let index = 0; !stop; index++)
        during.push(await create(original.url, `during-${client}-${index}`));
    });
    const target = join(temporaryDirectory('psm-crash-'), 'copy');
    const taken = await backup(['--data-dir', dataDir, '--to', target]);
    stop = true;
    await Promise.all(load);
    expect(taken.code).toBe(0);
    expect(taken.output).toContain(`Backed up ${dataDir} to ${join(target, 'journal.1.log')}`);
    expect(taken.output).toContain(`payment-service-mock --data-dir ${target}`);
    expect(existsSync(join(target, 'LOCK'))).toBe(false);
    expect(during.length).toBeGreaterThan(0);

    // Started from the copy, with no LOCK to delete, while the original still runs.
    const restored = await startOnDataDir(target, ['--quiet']);
    running.push(restored);
    expect(original.alive()).toBe(true);
    for (const answer of before) {
      const id = answer.json?.id as string;
      const retrieved = await call(restored.url, { path: `/v1/payments/${id}`, key: KEY });
      expect(retrieved.text).toBe(
        (await call(original.url, { path: `/v1/payments/${id}`, key: KEY })).text,
      );
    }
    // An answered create's retry with its key replays on the copy.
    const replayed = await create(restored.url, 'before-7');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(before[7]?.text);
    // Whatever of the load the copy holds, it holds whole: each is a create the original answered.
    const answered = new Map(during.map((answer) => [answer.json?.id as string, answer.text]));
    const ids: string[] = [];
    for (let after: string | undefined; ; ) {
      const page = await call(restored.url, {
        path: `/v1/payments?limit=100${after === undefined ? '' : `&starting_after=${after}`}`,
        key: KEY,
      });
      const data = (page.json?.data ?? []) as Array<{ id: string }>;
      ids.push(...data.map((payment) => payment.id));
      if (page.json?.has_more !== true) break;
      after = data[data.length - 1]?.id;
    }
    const beforeIds = new Set(before.map((answer) => answer.json?.id as string));
    for (const id of ids) {
      if (beforeIds.has(id)) continue;
      expect(answered.has(id), id).toBe(true);
    }
    // The copy is its own directory: a change there is not in the original.
    const onlyInCopy = await create(restored.url, 'only-in-copy');
    expect(
      (await call(original.url, { path: `/v1/payments/${onlyInCopy.json?.id}`, key: KEY })).status,
    ).toBe(404);
  });

  it('refuses a target that is not empty and a directory that is no sandbox, saying which', async () => {
    const dataDir = temporaryDirectory('psm-crash-');
    const noSandbox = await backup([
      '--data-dir',
      temporaryDirectory('psm-crash-'),
      '--to',
      join(dataDir, 'copy'),
    ]);
    expect(noSandbox.code).toBe(1);
    expect(noSandbox.output).toContain('holds no journal (journal.N.log)');
    writeFileSync(join(dataDir, 'something'), '');
    const notEmpty = await backup([
      '--data-dir',
      temporaryDirectory('psm-crash-'),
      '--to',
      dataDir,
    ]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.output).toContain(`the backup's directory ${dataDir} exists and is not empty`);
    const missing = await backup(['--to', join(dataDir, 'x')]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain(
      '--data-dir (or $PAYMENT_SERVICE_MOCK_DATA_DIR) and --to are both needed',
    );
  });
});
