// The data directory's lock between real processes: two racing on a dead owner's LOCK never both get it; refusals say what LOCK really is.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { lockDataDirectory } from './lock.js';

const root = temporaryDirectory('psm-lock-');
let counter = 0;
const newDirectory = () => {
  const path = join(root, `d${counter++}`);
  mkdirSync(path);
  return path;
};

/** A pid no process has now: a child that ran and exited. */
function deadPid(): number {
  return spawnSync('true').pid;
}

/**
 * A process that takes the lock when told: `go DIR DEADLINE` (it spins until the ms epoch
 * DEADLINE, so two start at the same instant), answers `got` or `refused MESSAGE`, and keeps
 * the lock until `release`.
 */
interface Contender {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
  send(line: string): void;
}

const WORKER = `
import { createInterface } from 'node:readline';
import { lockDataDirectory } from './lock.mjs';
let release;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, dir, deadline] = line.split(' ');
  if (command === 'go') {
    while (Date.now() < Number(deadline)) {}
    try {
      release = lockDataDirectory(dir);
      process.stdout.write('got\\n');
    } catch (error) {
      process.stdout.write('refused ' + error.message.replaceAll('\\n', ' ') + '\\n');
    }
  } else if (command === 'release') {
    release?.();
    release = undefined;
    process.stdout.write('released\\n');
  }
}
`;

function contender(script: string): Contender {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiting: Array<{ resolve(line: string): void; reject(error: Error): void }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) lines.push(line);
    else waiter.resolve(line);
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  child.once('exit', () => {
    for (const { reject } of waiting.splice(0)) reject(new Error(`contender exited: ${errors}`));
  });
  return {
    child,
    next: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send: (line) => child.stdin.write(`${line}\n`),
  };
}

describe('two processes racing on the lock of a dead owner', () => {
  let contenders: Contender[] = [];
  beforeAll(() => {
    // The lock module as it is in this tree, for plain node processes.
    const bundle = join(root, 'worker');
    mkdirSync(bundle);
    buildSync({
      entryPoints: [fileURLToPath(new URL('./lock.ts', import.meta.url))],
      outfile: join(bundle, 'lock.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
    });
    writeFileSync(join(bundle, 'worker.mjs'), WORKER);
    contenders = [contender(join(bundle, 'worker.mjs')), contender(join(bundle, 'worker.mjs'))];
  });
  afterAll(() => {
    for (const { child } of contenders) child.kill();
  });

  it('gives it to exactly one of them, 150 times out of 150, and the other names the winner', async () => {
    const dead = deadPid();
    const outcomes: string[] = [];
    for (let trial = 0; trial < 150; trial++) {
      const dir = newDirectory();
      writeFileSync(join(dir, 'LOCK'), trial % 2 === 0 ? `${dead}\n` : `${dead}\nstart 1\n`);
      const deadline = Date.now() + 5;
      for (const { send } of contenders) send(`go ${dir} ${deadline}`);
      const answers = await Promise.all(contenders.map(({ next }) => next()));
      const winners = contenders.filter((_, index) => answers[index] === 'got');
      outcomes.push(`${winners.length}`);
      if (winners.length === 1) {
        const winner = winners[0] as Contender;
        const loser = answers.find((answer) => answer !== 'got') ?? '';
        expect(loser).toContain(`in use by another sandbox (pid ${winner.child.pid}`);
        expect(readFileSync(join(dir, 'LOCK'), 'utf8').split('\n')[0]).toBe(
          String(winner.child.pid),
        );
      }
      for (const { send, next } of winners) {
        send('release');
        await next();
      }
    }
    // Every trial had one winner (a trial with two is a lost write; with none, a refused start).
    expect(outcomes.filter((count) => count !== '1')).toEqual([]);
  }, 60_000);
});

describe('what the lock refuses, said as it is', () => {
  it('takes over a lock whose pid now belongs to a process that started later', () => {
    const sleeper = spawn('sleep', ['30']);
    try {
      const dir = newDirectory();
      writeFileSync(join(dir, 'LOCK'), `${sleeper.pid}\nstart 1\n`);
      const release = lockDataDirectory(dir);
      expect(readFileSync(join(dir, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(process.pid));
      release();
    } finally {
      sleeper.kill();
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'refuses a lock naming a live process it cannot tell is its writer, naming the command and the way out',
    () => {
      const sleeper = spawn('sleep', ['30']);
      try {
        for (const pid of [1, sleeper.pid as number]) {
          const dir = newDirectory();
          writeFileSync(join(dir, 'LOCK'), `${pid}\n`);
          let message = '';
          try {
            lockDataDirectory(dir);
          } catch (error) {
            message = (error as Error).message;
          }
          expect(message).toContain(`the lock file ${join(dir, 'LOCK')} names pid ${pid}`);
          expect(message).not.toContain('in use by another sandbox');
          if (pid !== 1) expect(message).toContain('a running process ("sleep")');
          expect(message).toContain(`delete ${join(dir, 'LOCK')} and start again`);
          // Nothing was changed.
          expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(`${pid}\n`);
        }
      } finally {
        sleeper.kill();
      }
    },
  );

  it('says a LOCK that is a directory or a symbolic link is not its file, and how to fix it', () => {
    const asDirectory = newDirectory();
    mkdirSync(join(asDirectory, 'LOCK'));
    expect(() => lockDataDirectory(asDirectory)).toThrowError(
      `the lock file ${join(asDirectory, 'LOCK')} is a directory, not a file the sandbox wrote. If no sandbox uses ${asDirectory}, remove it and start again.`,
    );
    const dangling = newDirectory();
    symlinkSync(join(dangling, 'nowhere'), join(dangling, 'LOCK'));
    expect(() => lockDataDirectory(dangling)).toThrowError(
      `the lock file ${join(dangling, 'LOCK')} is a symbolic link (to ${join(dangling, 'nowhere')}, which does not exist), not a file the sandbox wrote.`,
    );
  });

  it('clears what a process killed while taking the lock left beside it', () => {
    const dir = newDirectory();
    const dead = deadPid();
    writeFileSync(join(dir, `LOCK.${dead}.new`), `${dead}\n`);
    const release = lockDataDirectory(dir);
    expect(readdirSync(dir)).toEqual(['LOCK']);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over an empty LOCK and releases only its own', () => {
    const dir = newDirectory();
    writeFileSync(join(dir, 'LOCK'), '');
    const release = lockDataDirectory(dir);
    const text = readFileSync(join(dir, 'LOCK'), 'utf8');
    expect(text.split('\n')[0]).toBe(String(process.pid));
    // Another's lock written meanwhile is not ours to remove.
    writeFileSync(join(dir, 'LOCK'), `${deadPid()}\n`);
    release();
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).not.toBe('');
  });

  it('refuses a second sandbox of this very process on a directory it holds, by any path, and gives it once released', () => {
    const dir = newDirectory();
    const release = lockDataDirectory(dir);
    for (const path of [dir, `${dir}/.`, join(dir, '..', dir.split('/').at(-1) as string)]) {
      expect(() => lockDataDirectory(path)).toThrowError(
        `is in use by another sandbox of this process (pid ${process.pid}`,
      );
    }
    // The refusals changed nothing: the lock is still the first one's, released by it alone.
    expect(readFileSync(join(dir, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    release();
    expect(readdirSync(dir)).toEqual([]);
    const again = lockDataDirectory(dir);
    again();
  });
});
