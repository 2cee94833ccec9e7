// Jest runs the TypeScript suites compiled to CommonJS by ts-jest: the packages load through their
// CommonJS builds (`require`), so no experimental ESM flag is needed on Node 20.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/jest'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  // The sources import './app.js' (ESM style); the file is app.ts.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
