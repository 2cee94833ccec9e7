// The order the package tests' files start in: the longest first, so that the last to start are short (a fresh clone has no durations cached for vitest to order by).
import { basename } from 'node:path';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

/** The files that take longest (installs from the registry, strict type-checks), longest first. */
export const LONGEST_FIRST = [
  'examples.test.ts',
  'strict-types.test.ts',
  'install-typescript.test.ts',
  'contract-cli.test.ts',
  'contract-proxy.test.ts',
  'install-esm.test.ts',
  'tarballs.test.ts',
];

/**
 * Vitest's own order (cached durations, then size), except that the files in `LONGEST_FIRST` start
 * first, in that order: three workers then end together instead of waiting on the one long file.
 *
 * @example
 * defineConfig({ test: { sequence: { sequencer: LongestFirst } } });
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(basename(file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
