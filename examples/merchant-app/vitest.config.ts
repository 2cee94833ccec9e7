// Vitest runs the suites in test/vitest; jest runs test/jest.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/vitest/**/*.test.ts'] } });
