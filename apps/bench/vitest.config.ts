// Vitest configuration of the bench: the smoke run takes a while, so long timeouts. The files share
// worker threads and their module graph (no isolation: the six unit files took 8.3-9.1 user CPU-s
// in forks, each importing its modules again, and 5.2-5.9 so); tests must not leave global state
// behind.
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
    testTimeout: 420_000,
    hookTimeout: 420_000,
  },
});
