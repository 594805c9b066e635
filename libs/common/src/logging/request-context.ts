import type { ServerResponse } from 'node:http';

/** The header `requestLogger` puts each request's id in (and keeps a trustworthy incoming one under). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Says which request a log line is about, passed to a Nest `Logger` call after the message
 * (`logger.error(stack, aboutRequest(response))`): `PinoNestLogger` writes its id as the line's `requestId`, so a
 * server fault's stack trace can be matched with the caller's `X-Request-Id`.
 *
 * Passed, not found: an `AsyncLocalStorage` entered per request would carry the id to every line written while the
 * request is handled, but on Node 20 and 22 it keeps V8's promise hooks on for every promise the process makes,
 * 11 % of a one-record read's CPU (docs/performance-log.md, "`AsyncLocalStorage` only while it is in use"). The
 * lines written for a request are its request line and its fault's, and both have the request at hand.
 */
export class AboutRequest {
  constructor(readonly requestId: string) {}
}

/** The request a response answers, for a log line about it; undefined before `requestLogger` gave it an id. */
export function aboutRequest(response: ServerResponse): AboutRequest | undefined {
  const requestId = response.getHeader(REQUEST_ID_HEADER);
  return typeof requestId === 'string' ? new AboutRequest(requestId) : undefined;
}
