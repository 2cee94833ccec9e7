// kill -9 under mixed load, ten times on one data directory: every answered write survives each restart, and nothing is half-applied.
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { type Receiver, startReceiver } from '../receiver.js';
import type { Sandbox } from '../sandbox.js';
import { verifyAfterRestart } from './after-restart.js';
import { journalOf, seededRandom, startOnDataDir } from './data-dir-sandbox.js';
import { newModels, runUntilKilled } from './mixed-load.js';

/** `CRASH_SEED=<n>` replays a failed run's plan (the interleaving of clients still varies). */
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = 10;
const CLIENTS = 6;
const KEYS = 24;

/** The data directory of the kills: removed after the sandbox's last kill (KEEP_TEST_TMPDIR=1 keeps it). */
const dataDir = temporaryDirectory('psm-crash-');
let receiver: Receiver | undefined;
let sandbox: Sandbox | undefined;
afterAll(async () => {
  await sandbox?.kill9();
  await receiver?.close();
});

describe('a data directory under kill -9', () => {
  it(`keeps every answered write through ${ROUNDS} kills under mixed load (seed ${seed})`, async () => {
    const random = seededRandom(seed);
    receiver = await startReceiver('answer');
    const models = newModels(seed, KEYS);
    const rounds: string[] = [];
    let round = 0;
    try {
      sandbox = await startOnDataDir(dataDir);
      for (round = 1; round <= ROUNDS; round++) {
        const running = sandbox;
        const loadStart = performance.now();
        const killAfter = random.int(20, 250);
        const load = await runUntilKilled(running.url, models, random, {
          clients: CLIENTS,
          killAfter,
          round,
          receiver,
          kill: () => running.kill9(),
        });
        expect(running.child.signalCode).toBe('SIGKILL');
        const killedAt = performance.now();
        sandbox = await startOnDataDir(dataDir);
        const restartedAt = performance.now();
        expect(sandbox.output()).not.toMatch(/corrupt/);
        const checked = await verifyAfterRestart(sandbox.url, models, receiver, {
          all: round === ROUNDS,
        });
        rounds.push(
          `round ${round}: killed after ${load.answered} answers, ${load.inFlight} in flight (${Math.round(killedAt - loadStart)} ms); restarted in ${Math.round(restartedAt - killedAt)} ms; ${checked} checks (${Math.round(performance.now() - restartedAt)} ms)`,
        );
      }
    } catch (error) {
      const journal = (() => {
        try {
          return journalOf(dataDir);
        } catch {
          return 'no journal';
        }
      })();
      (error as Error).message =
        `[seed ${seed}, round ${round}; rerun with CRASH_SEED=${seed}; data directory ${journal}, kept with KEEP_TEST_TMPDIR=1]\n${rounds.join('\n')}\n${(error as Error).message}`;
      throw error;
    }
    const payments = models.reduce((sum, model) => sum + model.payments.size, 0);
    const keyed = models.reduce((sum, model) => sum + model.keyed.length, 0);
    console.log(
      `seed ${seed}: ${payments} payments and ${keyed} Idempotency-Key answers kept\n${rounds.join('\n')}`,
    );
    expect(payments).toBeGreaterThan(0);
    // A guard against a hang only (about 10-20 s on two cores): no timing is asserted.
  }, 120_000);
});
