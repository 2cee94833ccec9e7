// The published CLI on a data directory: started, killed with SIGKILL, refused; its journal read back line by line.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { tiedToSpawner } from '../fleet/tied-child.js';
import type { Answer } from '../http.js';
import {
  type LaunchOptions,
  MOCK_BIN,
  MOCK_BIN_NODE_FLAGS,
  type Sandbox,
  startSandbox,
} from '../sandbox.js';

/**
 * Starts `payment-service-mock` (the bin, in one process: the shebang's heap flag is given) on
 * `dataDir` with a free port, and resolves once it printed its URL.
 *
 * @example
 * const sandbox = await startOnDataDir(dir); … await sandbox.kill9();
 */
export function startOnDataDir(
  dataDir: string,
  flags: string[] = [],
  launch: Omit<LaunchOptions, 'script' | 'nodeFlags'> = {},
): Promise<Sandbox> {
  return startSandbox(
    ['--data-dir', dataDir, ...flags],
    {},
    {
      ...launch,
      script: MOCK_BIN,
      nodeFlags: MOCK_BIN_NODE_FLAGS,
    },
  );
}

/** How a CLI that was expected to refuse to start ended. */
export interface Refusal {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr together. */
  output: string;
}

/**
 * Runs the bin on `dataDir` (as another user with `as`, when this process may) and waits for it
 * to exit by itself (a refused start); a CLI that is still running after 20 s is killed, and its
 * output is returned all the same.
 *
 * @example
 * const { code, output } = await runUntilExit(dir); // code 2, output names the lock file
 */
export function runUntilExit(
  dataDir: string,
  flags: string[] = [],
  as: { uid?: number; gid?: number } = {},
): Promise<Refusal> {
  const child = spawn(
    ...tiedToSpawner(process.execPath, [
      ...MOCK_BIN_NODE_FLAGS,
      MOCK_BIN,
      '--port',
      '0',
      '--data-dir',
      dataDir,
      ...flags,
    ]),
    { stdio: ['ignore', 'pipe', 'pipe'], ...as },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/**
 * The journal in use in a data directory: the file of the highest generation.
 *
 * @example
 * journalOf(dataDir); // '<dataDir>/journal.1.log'
 */
export function journalOf(dataDir: string): string {
  const generations = readdirSync(dataDir)
    .map((name) => /^journal\.(\d+)\.log$/.exec(name)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
  if (generations[0] === undefined) throw new Error(`no journal in ${dataDir}`);
  return join(dataDir, `journal.${generations[0]}.log`);
}

/**
 * The byte offsets of a journal's lines that are not whole (`<crc32 hex> <json>\n` with a
 * matching checksum): empty when every line, the last included, is whole.
 *
 * @example
 * badJournalLines(readFileSync(journalOf(dir))); // []
 */
export function badJournalLines(content: Buffer): number[] {
  const bad: number[] = [];
  let offset = 0;
  while (offset < content.length) {
    const end = content.indexOf(10, offset);
    const line = content.toString('utf8', offset, end === -1 ? content.length : end);
    const json = line.slice(9);
    const whole =
      end !== -1 &&
      line[8] === ' ' &&
      line.slice(0, 8) === crc32(json).toString(16).padStart(8, '0');
    if (!whole) bad.push(offset);
    if (end === -1) break;
    offset = end + 1;
  }
  return bad;
}

/**
 * The journal's bytes now.
 *
 * @example
 * const before = journalBytes(dir);
 */
export function journalBytes(dataDir: string): Buffer {
  return readFileSync(journalOf(dataDir));
}

/**
 * An answer's headers as the response validator takes them (lower-case names, one string each).
 *
 * @example
 * validator.check({ method: 'GET', path, status: answer.status, headers: flatHeaders(answer), body: answer.text });
 */
export function flatHeaders(answer: Answer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * A small seeded generator (mulberry32): the same seed gives the same choices, so a failure
 * prints a seed that replays the same plan.
 *
 * @example
 * const random = seededRandom(42); random.int(1, 6); random.pick(['a', 'b']);
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    /** An integer from `min` to `max`, both included. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

/** A seeded generator's interface. */
export type SeededRandom = ReturnType<typeof seededRandom>;
