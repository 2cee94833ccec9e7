// Vitest configuration of the mock: test files share one module graph per worker (no isolation), which halves the suite's time; tests must not leave global state behind.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'threads',
    isolate: false,
  },
});
