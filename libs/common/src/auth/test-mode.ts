import type { Response } from 'express';

/** The start of every test key (`ppk_test_…`): keys of a team's sandbox (CONTRACT "Test mode (sandbox)"). */
export const TEST_KEY_PREFIX = 'ppk_test_';

/** The header on every answer to a test key. */
export const TEST_MODE_HEADER = 'X-Test-Mode';

/** Whether a bearer token is a test key by its shape (whether it works is the lookup's business). */
export function isTestKey(token: string): boolean {
  return token.startsWith(TEST_KEY_PREFIX);
}

/**
 * Marks an answer as given in test mode. Set as soon as the token is read, so every answer to a test key carries
 * it: a refusal (401, 403, 429), a malformed body (400, 413) and an unknown route (404) included.
 */
export function markTestMode(token: string, response: Response): void {
  if (isTestKey(token)) response.setHeader(TEST_MODE_HEADER, 'true');
}
