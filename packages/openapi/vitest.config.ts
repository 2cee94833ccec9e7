// Vitest configuration of the spec package: its tests sit in test/. Timeouts: 30 s a test and a
// hook, stated here rather than vitest's 5 s default (the tests that bundle the real spec took 6 s
// on a loaded machine); the tests that run tsc or the spec:breaking CLI set longer ones.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
