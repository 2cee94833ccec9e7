// Vitest configuration of the package tests: the tarballs are packed once, before every test file; three files at a time, longest first (each mostly waits on npm, tsc and child processes: 305 s one after another on two cores, 127 s three at a time). The files share worker threads and their module graph (no isolation:
// a fork and its imports per file are work no test needs); tests must not leave global state behind.
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './src/longest-first.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The run's own temporary directory first (checked empty at the end), then the run-wide setup.
    globalSetup: [
      '../../test-support/temporary-directory-guard.ts',
      '../../test-support/end-with-runner.ts',
      './src/global-setup.ts',
    ],
    pool: 'threads',
    isolate: false,
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
