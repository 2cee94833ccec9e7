// Vitest configuration of the spec package: its tests sit in test/. Timeouts: 30 s a test and a
// hook, stated here rather than vitest's 5 s default (the tests that bundle the real spec took 6 s
// on a loaded machine); the tests that run tsc or the spec:breaking CLI set longer ones.
// The files share worker threads and their module graph (no isolation: a fork per file imported
// yaml and the scripts again); tests must not leave global state behind.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // With the tests of the repository's shared test support (the first package to run them).
    include: ['test/**/*.test.ts', '../../test-support/**/*.test.ts'],
    // First: the run's own temporary directory, checked empty at the end.
    globalSetup: [
      '../../test-support/temporary-directory-guard.ts',
      '../../test-support/end-with-runner.ts',
    ],
    pool: 'threads',
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
