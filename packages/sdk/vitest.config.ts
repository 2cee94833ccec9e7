// Vitest configuration of the SDK: files share one module graph per worker thread (no isolation), which more than halves the suite's time; tests must not leave global state behind.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'threads',
    isolate: false,
  },
});
