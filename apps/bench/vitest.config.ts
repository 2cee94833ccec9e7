// Vitest configuration of the bench: the smoke run takes a while, so long timeouts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 420_000,
    hookTimeout: 420_000,
  },
});
