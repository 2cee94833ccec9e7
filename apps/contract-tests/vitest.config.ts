// Vitest configuration of the contract tests: one run-wide setup collects coverage and drift; files share one module graph per worker thread (no isolation: most of the suite's time was imports).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'threads',
    isolate: false,
    // The run's own temporary directory first (checked empty at the end), then the run-wide setup.
    globalSetup: [
      '../../test-support/temporary-directory-guard.ts',
      '../../test-support/end-with-runner.ts',
      './src/global-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
