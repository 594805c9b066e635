/** Jest in native ESM mode (NestJS 12 is ESM-only); `npm test` runs it with --experimental-vm-modules. */
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '\\.(e2e-|medium-)?spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@app/client$': '<rootDir>/libs/client/src/index.ts',
    '^@app/common$': '<rootDir>/libs/common/src/index.ts',
    '^@app/database$': '<rootDir>/libs/database/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        useESM: true,
        tsconfig: 'tsconfig.spec.json',
        // Types are checked once by `tsc --noEmit` before Jest runs (see the test script).
        diagnostics: false,
        astTransformers: { before: ['<rootDir>/test/support/swagger-plugin.cjs'] },
      },
    ],
  },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  maxWorkers: 2,
  // Workers hold no open handle at the end (their event loop is empty and they exit by themselves), but
  // tearing down a worker's heap takes 0.2-0.7 s on a busy 2-core machine: ts-jest's TypeScript plus every test
  // file's module graph, which Jest's ESM mode (vm modules) never frees. Jest's default grace of 0.5 s then kills
  // them and prints "A worker process has failed to exit gracefully". A real leak keeps a worker alive for good
  // and is still reported, after this longer grace.
  workerGracefulExitTimeout: 5_000,
  testTimeout: 60_000,
};
