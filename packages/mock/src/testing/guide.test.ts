// The README's testing guide: its self-contained snippets run as written (not named readme.test.ts: packers always ship README* files).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from './sandbox.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The TypeScript blocks of one `###` section of the README. */
function blocksOf(title: string): string[] {
  const start = readme.indexOf(`### ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = readme.indexOf('\n#', start + title.length + 5);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** Runs snippets as one async function body: imports dropped, `await using` closed at the end. */
async function run(code: string): Promise<void> {
  const body = code
    .replace(/^import .*$/gm, '')
    .replace(
      /await using (\w+) = (.*?);(.*)$/m,
      'const $1 = $2;$3\ncleanups.push(() => $1.close());',
    );
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const cleanups: (() => Promise<void>)[] = [];
  try {
    await new AsyncFunction('createTestSandbox', 'expect', 'cleanups', body)(
      createTestSandbox,
      expect,
      cleanups,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

describe('the README’s testing guide', () => {
  it('runs the happy path, then the clock example on the same sandbox', async () => {
    const [happyPath] = blocksOf('The happy path');
    const [clock] = blocksOf('The clock');
    expect(happyPath).toContain("from '@payment-service/mock/testing'");
    await run(`${happyPath}\n{\n${clock}\n}`);
  });
});
