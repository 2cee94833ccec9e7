// The tests' temporary directories: each one gone when what made it ends (a test however it ends, a
// block, a suite after its afterAll hooks), and the run guard that fails a run leaving anything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs, stopsRunning } from './child-lifetime.js';
import { mountsUnder, unmount } from './mounts.js';
import { temporaryDirectory } from './temporary-directory.js';
import setup, {
  closeRun,
  FOREIGN_RUN_AGE_MS,
  pidNamespace,
  removeDeadRuns,
} from './temporary-directory-guard.js';

const NAMESPACE = pidNamespace();

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
      expect(run.startsWith(join(outer, `psk-test-run-openapi-${NAMESPACE}-${process.pid}-`))).toBe(
        true,
      );
      expect(statSync(run).mode & 0o777).toBe(0o711);
      teardown();
      expect(process.env.TMPDIR).toBe(outer);
      expect(readdirSync(outer)).toEqual([]);
    });
  });

  it('fails a run that left entries, naming them, and still removes them', () => {
    const outer = temporaryDirectory('tidy-outer-');
    const run = join(outer, `psk-test-run-mock-${NAMESPACE}-1-a1B2c3`);
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

  it('removes the directory of a run of this PID namespace whose process is gone, and keeps a running one and others', () => {
    withTmpdir((outer) => {
      // Process ids above the kernel's pid_max (4,194,304 at most) are never running.
      const dead = join(outer, `psk-test-run-mock-${NAMESPACE}-99999999-a1B2c3`);
      const alive = join(outer, `psk-test-run-contract-${NAMESPACE}-${process.pid}-d4E5f6`);
      const other = join(outer, 'psm-data-g7H8i9');
      for (const path of [dead, alive, other]) mkdirSync(path);
      writeFileSync(join(dead, 'left'), 'x');
      removeDeadRuns(outer);
      expect(readdirSync(outer).sort()).toEqual(
        [alive, other].map((path) => path.slice(outer.length + 1)).sort(),
      );
    });
  });

  it.skipIf(process.platform !== 'linux')(
    'stops what a killed run left running in its directory (a detached process no parent-death signal reaches), naming it, then removes the directory',
    async () => {
      const outer = temporaryDirectory('tidy-outer-');
      const run = join(outer, `psk-test-run-contract-${NAMESPACE}-99999999-a1B2c3`);
      mkdirSync(run);
      const left = spawn('sleep', ['600'], { cwd: run, detached: true, stdio: 'ignore' });
      left.unref();
      const pid = left.pid as number;
      try {
        expect(runs(pid)).toBe(true);
        const warnings: string[] = [];
        removeDeadRuns(outer, (line) => warnings.push(line));
        await stopsRunning(pid);
        expect(warnings).toEqual([
          `temporary files: stopped what a killed run left running in ${run}: ${pid} sleep 600`,
        ]);
        expect(readdirSync(outer)).toEqual([]);
      } finally {
        if (runs(pid)) process.kill(pid, 'SIGKILL');
      }
    },
  );

  it('judges a run of another PID namespace (another container on a shared /tmp) by age alone: kept while it changed within a day', () => {
    withTmpdir((outer) => {
      // Its process id means nothing here (99999999 is never running in this namespace): the run may be alive.
      const recent = join(outer, 'psk-test-run-reliability-1-99999999-a1B2c3');
      const quiet = join(outer, 'psk-test-run-reliability-1-99999999-d4E5f6');
      const olderName = join(outer, 'psk-test-run-reliability-99999999-g7H8i9');
      for (const path of [recent, quiet, olderName]) mkdirSync(path);
      const now = Date.now();
      const dayAndMinute = (FOREIGN_RUN_AGE_MS + 60_000) / 1000;
      for (const path of [quiet, olderName])
        utimesSync(path, now / 1000 - dayAndMinute, now / 1000 - dayAndMinute);
      removeDeadRuns(outer, () => {}, now);
      expect(readdirSync(outer)).toEqual([basename(recent)]);
    });
  });
});

/** Mounts a 4 KiB tmpfs at `point` (root on Linux only); whether it could. */
function mountTmpfs(point: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', point]).status === 0;
}
const canMount = (() => {
  const probe = temporaryDirectory('tidy-mount-probe-');
  const mounted = mountTmpfs(probe);
  if (mounted) unmount([probe]);
  return mounted;
})();

describe.skipIf(!canMount)('the run guard, with a file system left mounted (root on Linux)', () => {
  /** A killed run's directory (its process id is never running) with a tmpfs mounted in it, holding a file. */
  function killedRunWithMount(outer: string): { run: string; point: string } {
    const run = join(outer, `psk-test-run-reliability-${NAMESPACE}-99999999-a1B2c3`);
    const point = join(run, 'psm-small-disk-d4E5f6');
    mkdirSync(point, { recursive: true });
    if (!mountTmpfs(point)) throw new Error(`cannot mount a tmpfs at ${point}`);
    writeFileSync(join(point, 'mock.log'), 'x');
    return { run, point };
  }

  it('unmounts what a killed run left mounted, then removes its directory, warning of nothing', () => {
    const outer = temporaryDirectory('tidy-outer-');
    const { point } = killedRunWithMount(outer);
    const warnings: string[] = [];
    try {
      removeDeadRuns(outer, (line) => warnings.push(line));
      expect({ left: readdirSync(outer), mounted: mountsUnder(outer), warnings }).toEqual({
        left: [],
        mounted: [],
        warnings: [],
      });
    } finally {
      unmount(mountsUnder(point));
    }
  });

  it('never throws when the directory cannot go (no umount to run): it warns, naming it, and keeps it', () => {
    const outer = temporaryDirectory('tidy-outer-');
    const { run, point } = killedRunWithMount(outer);
    const warnings: string[] = [];
    const path = process.env.PATH;
    try {
      process.env.PATH = '';
      removeDeadRuns(outer, (line) => warnings.push(line));
    } finally {
      process.env.PATH = path;
    }
    try {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(
        `the directory a killed run left, ${run}, stays (still mounted: ${point} (`,
      );
      // Nothing inside the mount was removed.
      expect(readdirSync(point)).toEqual(['mock.log']);
      expect(mountsUnder(outer)).toEqual([point]);
    } finally {
      unmount([point]);
    }
  });

  it('fails a run that left a file system mounted in its own directory, naming it, and unmounts and removes it', () => {
    const outer = temporaryDirectory('tidy-outer-');
    const run = join(outer, `psk-test-run-reliability-${NAMESPACE}-${process.pid}-g7H8i9`);
    const point = join(run, 'psm-small-disk-j1K2l3');
    mkdirSync(point, { recursive: true });
    try {
      expect(mountTmpfs(point)).toBe(true);
      expect(closeRun(run)).toMatch(
        /^the tests left 1 entry in the temporary directory \(psm-small-disk-j1K2l3\): .*; they left 1 file system mounted there \(psm-small-disk-j1K2l3\): unmount in an afterAll hook$/,
      );
      expect({ left: readdirSync(outer), mounted: mountsUnder(outer) }).toEqual({
        left: [],
        mounted: [],
      });
    } finally {
      unmount(mountsUnder(point));
    }
  });
});
