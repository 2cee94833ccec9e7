// Vitest configuration of the attack suite: one CLI process per file, files one after another
// (two busy cores), and test timeouts that turn a hung request into a failure.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
