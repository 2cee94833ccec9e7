// The tests' temporary directories: each one gone when what made it ends (a test however it ends, a
// block, a suite after its afterAll hooks), and the run guard that fails a run leaving anything.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './temporary-directory.js';
import setup, { closeRun, removeDeadRuns } from './temporary-directory-guard.js';

const made: Record<string, string> = {};

describe('made in a test', () => {
  it('exists in the test, under the temporary directory, with the prefix', () => {
    made.passed = temporaryDirectory('tidy-passed-');
    writeFileSync(join(made.passed, 'file'), 'x');
    mkdirSync(join(made.passed, 'nested'));
    expect(made.passed.startsWith(join(tmpdir(), 'tidy-passed-'))).toBe(true);
  });

  it.fails('a test that fails', () => {
    made.failed = temporaryDirectory('tidy-failed-');
    expect(1).toBe(2);
  });

  it.fails('a test that times out', async () => {
    made.timedOut = temporaryDirectory('tidy-timed-out-');
    await new Promise(() => {}); // never settles: the test ends by its timeout
  }, 100);

  it('is gone once the test ended: passed, failed or timed out, with what it held', () => {
    expect(
      [made.passed, made.failed, made.timedOut].map((path) => path && existsSync(path)),
    ).toEqual([false, false, false]);
  });
});

describe('made at a block top level', () => {
  const block = temporaryDirectory('tidy-block-');
  made.block = block;
  it('lasts for every test of the block', () => {
    writeFileSync(join(block, 'first'), '1');
  });
  it('still there in the next test', () => {
    expect(readdirSync(block)).toEqual(['first']);
  });
});

describe('made in a beforeAll', () => {
  let suiteDirectory = '';
  beforeAll(() => {
    suiteDirectory = temporaryDirectory('tidy-suite-');
    made.suite = suiteDirectory;
  });
  afterAll(() => {
    // A process writing there would be stopped here: the directory goes after the file's afterAll hooks.
    made.atAfterAll = String(existsSync(suiteDirectory));
  });
  it('lasts for the suite', () => {
    expect(existsSync(suiteDirectory)).toBe(true);
  });
});

describe.skip('a skipped block', () => {
  beforeAll(() => {
    made.skipped = temporaryDirectory('tidy-skipped-');
  });
  it('never runs', () => {});
});

describe('after the blocks', () => {
  it('the block directory is gone, the beforeAll one is there until the file ends, a skipped block made none', () => {
    expect(existsSync(made.block as string)).toBe(false);
    expect(made.atAfterAll).toBe('true');
    expect(existsSync(made.suite as string)).toBe(true);
    expect(made.skipped).toBeUndefined();
  });
});

afterAll(() => {
  // Registered before the beforeAll ran, yet its directory is still there: it goes after this hook
  // (the guard of the run fails it if it does not go at all).
  expect(existsSync(made.suite as string)).toBe(true);
});

describe('the run guard', () => {
  /** Runs `body` with TMPDIR at a fresh directory of this test's; restores TMPDIR after. */
  function withTmpdir(body: (outer: string) => void) {
    const outer = temporaryDirectory('tidy-outer-');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = outer;
    try {
      body(outer);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  }

  it('points TMPDIR at a directory of the run, and a clean run passes and leaves nothing', () => {
    withTmpdir((outer) => {
      const teardown = setup();
      const run = tmpdir();
      expect(run).not.toBe(outer);
      expect(run.startsWith(join(outer, 'psk-test-run-'))).toBe(true);
      expect(statSync(run).mode & 0o777).toBe(0o711);
      teardown();
      expect(process.env.TMPDIR).toBe(outer);
      expect(readdirSync(outer)).toEqual([]);
    });
  });

  it('fails a run that left entries, naming them, and still removes them', () => {
    const outer = temporaryDirectory('tidy-outer-');
    const run = join(outer, 'psk-test-run-mock-1-a1B2c3');
    mkdirSync(join(run, 'contract-gate-abc123'), { recursive: true });
    writeFileSync(join(run, 'stray.log'), 'x');
    expect(closeRun(run)).toMatch(
      /^the tests left 2 entries in the temporary directory \(contract-gate-abc123, stray\.log\): make temporary directories with temporaryDirectory\(\)/,
    );
    expect(readdirSync(outer)).toEqual([]);
    mkdirSync(run);
    expect(closeRun(run)).toBeUndefined();
    expect(readdirSync(outer)).toEqual([]);
  });

  it('removes the directory of a run whose process is gone, and keeps a running one and others', () => {
    withTmpdir((outer) => {
      // Process ids above the kernel's pid_max (4,194,304 at most) are never running.
      const dead = join(outer, 'psk-test-run-mock-99999999-a1B2c3');
      const alive = join(outer, `psk-test-run-contract-${process.pid}-d4E5f6`);
      const other = join(outer, 'psm-data-g7H8i9');
      for (const path of [dead, alive, other]) mkdirSync(path);
      writeFileSync(join(dead, 'left'), 'x');
      removeDeadRuns(outer);
      expect(readdirSync(outer).sort()).toEqual(
        [alive, other].map((path) => path.slice(outer.length + 1)).sort(),
      );
    });
  });
});
