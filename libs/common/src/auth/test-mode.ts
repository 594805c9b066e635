import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { bearerToken } from './api-key.guard.js';

/** The start of every test key (`ppk_test_…`): keys of a team's sandbox (CONTRACT "Test mode (sandbox)"). */
export const TEST_KEY_PREFIX = 'ppk_test_';

/** The header on every answer to a test key. */
export const TEST_MODE_HEADER = 'X-Test-Mode';

/** Whether a bearer token is a test key by its shape (whether it works is the lookup's business). */
export function isTestKey(token: string): boolean {
  return token.startsWith(TEST_KEY_PREFIX);
}

/**
 * App-wide middleware, first in the chain: the one place that marks an answer as given in test mode. Every answer
 * to a request that presents a test key (`Authorization: Bearer ppk_test_…`) carries `X-Test-Mode: true`: keyed
 * routes and the ones that need no key (`GET /v1`, the document, Swagger UI, health, signed downloads), a refusal
 * (401, 403, 429), a malformed body (400, 413) and an unknown path (404) included. The key's shape decides, not its
 * lookup, so an unknown or revoked test key's 401 is marked too.
 */
export function markTestModeAnswers(request: Request, response: Response, next: NextFunction): void {
  markTestMode(request, response);
  next();
}

/** `X-Test-Mode: true` on the answer when the request presents a test key: the middleware's rule, for any server. */
export function markTestMode(request: IncomingMessage, response: ServerResponse): void {
  const token = bearerToken(request.headers.authorization);
  if (token !== undefined && isTestKey(token)) response.setHeader(TEST_MODE_HEADER, 'true');
}
