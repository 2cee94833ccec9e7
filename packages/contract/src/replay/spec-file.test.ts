import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { loadSpecFile, reportUri } from './spec-file.js';

describe('reportUri', () => {
  it('names a file under the working directory relatively, with forward slashes', () => {
    expect(reportUri('/repo/spec/next.yaml', '/repo')).toBe('spec/next.yaml');
    expect(reportUri('spec/next.yaml', '/repo')).toBe('spec/next.yaml');
  });

  it('names a file elsewhere by its absolute file: URI, never a ../ path', () => {
    expect(reportUri('/tmp/next.yaml', '/repo')).toBe('file:///tmp/next.yaml');
    expect(reportUri('../other/next.yaml', '/repo/app')).toBe('file:///repo/other/next.yaml');
    expect(reportUri('/tmp/a b#c.yaml', '/repo')).toBe('file:///tmp/a%20b%23c.yaml');
  });
});

describe('loadSpecFile', () => {
  it('locates elements on their lines, in the file named from the run directory', async () => {
    const dir = temporaryDirectory('spec-file-');
    await writeFile(
      join(dir, 'next.yaml'),
      'openapi: 3.1.0\ninfo:\n  title: t\n  version: "1"\npaths: {}\ncomponents:\n  schemas:\n    Payment:\n      type: object\n',
    );
    const spec = await loadSpecFile(join(dir, 'next.yaml'), dir);
    expect(
      spec.locate({
        spec: 'openapi',
        pointer: '/components/schemas/Payment/type',
      } as Parameters<typeof spec.locate>[0]),
    ).toEqual({ file: 'next.yaml', line: 9 });
  });

  it('refuses a missing file and a document that is not OpenAPI, naming the file and the field', async () => {
    const dir = temporaryDirectory('spec-file-');
    await expect(loadSpecFile(join(dir, 'absent.yaml'))).rejects.toThrow(
      /--spec .*absent\.yaml: cannot be read \(ENOENT\)/,
    );
    await writeFile(join(dir, 'list.yaml'), 'openapi: 3.1.0\npaths: []\n');
    await expect(loadSpecFile(join(dir, 'list.yaml'))).rejects.toThrow(
      /field paths: expected an object of paths/,
    );
  });
});
