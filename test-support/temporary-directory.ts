// Temporary directories for tests, each removed with everything in it when what made it ends, whether
// it passed, failed or timed out. Every package's tests make their temporary directories here, so a
// test run leaves the machine's temporary directory as it found it; the guard in
// ./temporary-directory-guard.ts fails a run that leaves anything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';
import { KEEP_VARIABLE } from './temporary-directory-guard.js';

/** Removes `path` and all it holds; a process still closing its files there gets a few retries. */
function remove(path: string): void {
  if (process.env[KEEP_VARIABLE] === '1') return;
  rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/**
 * Makes a fresh directory `<tmpdir>/<prefix>XXXXXX` and removes it with all it holds:
 * - called in a test or a beforeEach: when the test ends (after its afterEach hooks);
 * - called at a file's or a describe block's top level: after the block's tests and the afterAll
 *   hooks declared below the call;
 * - called in a beforeAll (or an afterAll): after the file's last afterAll hook, even when the
 *   beforeAll fails later; a skipped block's beforeAll makes none.
 * So the processes that write into it are stopped (in an afterEach or an afterAll) before it goes.
 *
 * @example
 * const cwd = temporaryDirectory('contract-gate-'); // in a test: gone when the test ends
 */
export function temporaryDirectory(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const removal = () => remove(path);
  if (TestRunner.getCurrentTest() !== undefined) {
    onTestFinished(removal);
  } else {
    const file = TestRunner.getCurrentSuite().file;
    // A file that has a result is running (in a suite hook); one without is being collected.
    if (file?.result === undefined) afterAll(removal);
    // afterAll hooks run last-registered first: the first one runs after all the others.
    else TestRunner.getSuiteHooks(file).afterAll.unshift(removal);
  }
  return path;
}
