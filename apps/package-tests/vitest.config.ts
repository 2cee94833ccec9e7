// Vitest configuration of the package tests: the tarballs are packed once, before every test file.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
