// The README's table of the request path ("How the mock is built") names every step module here, and only those.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const here = new URL('./', import.meta.url);
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the README’s table of steps', () => {
  it('lists every step module of src/http/steps/, and no other', () => {
    const section = readme.slice(
      readme.indexOf('### How the mock is built'),
      readme.indexOf('#### The store seam'),
    );
    const listed = new Set(
      [...section.matchAll(/^\| [^|]+ \| `([a-z-]+\.ts)` \|/gm)].map((match) => match[1]),
    );
    const modules = readdirSync(here).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'state.ts',
    );
    expect(listed.size).toBeGreaterThan(5);
    expect([...listed].sort()).toEqual(modules.sort());
  });
});
