import base from './jest.config.js';

/**
 * `npm run test:reliability`: the generated suites under test/reliability (fuzzing from the OpenAPI document,
 * the cross-team sweep, malformed forms on every dashboard POST route). Kept out of `npm test`, whose pattern does not match `*.reliability-spec.ts`.
 */
export default {
  ...base,
  roots: ['<rootDir>/test/reliability'],
  testRegex: '\\.reliability-spec\\.ts$',
  // Each spec sends thousands of requests; on a busy 2-core machine a run takes about a minute.
  testTimeout: 300_000,
};
