// Vitest configuration of the attack suite: one CLI process per file, files one after another
// (two busy cores), and test timeouts that turn a hung request into a failure. The files share one
// worker thread and its module graph (no isolation: a fork per file and its imports cost about
// 0.4 CPU-s a file, measured on six files: 10.4-12.2 -> 8.6-9.4 CPU-s); tests must not leave
// global state behind (each file stops its processes and removes its directories in afterAll).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // First: the run's own temporary directory, checked empty at the end.
    globalSetup: [
      '../../test-support/temporary-directory-guard.ts',
      '../../test-support/end-with-runner.ts',
    ],
    pool: 'threads',
    isolate: false,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
