// Vitest configuration of the SDK: files share one module graph per worker thread (no isolation), which more than halves the suite's time; tests must not leave global state behind.
// Timeouts: 30 s a test and a hook, stated here rather than vitest's 5 s default. Many tests start
// real servers, child processes or Redis, and took 5-12 s on a loaded two-core machine where they
// take under 1 s alone (several failed at the default in clean-clone runs); a hang still fails.
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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
