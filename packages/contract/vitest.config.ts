// Vitest configuration of the contract package: tests sit next to the modules they test, and files share one module graph per worker thread (no isolation: a fraction of the import time); tests must not leave global state behind.
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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
