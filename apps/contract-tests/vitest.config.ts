// Vitest configuration of the contract tests: one run-wide setup collects coverage and drift.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
