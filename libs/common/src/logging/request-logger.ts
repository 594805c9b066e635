import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { ClientGoneError } from '../errors/domain-errors.js';
import { refusedStatusOf } from '../http/client-errors.js';
import { REQUEST_ID_HEADER } from './request-context.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The path without its query string, as the client sent it (the `/v1` prefix included). */
export function pathOf(request: Request): string {
  const url = request.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The route the request matched, as declared (`/v1/invoices/:invoiceId`), once it has been routed;
 * `undefined` when no route matched: an unknown path (Nest answers those under `/v1` from a catch-all
 * `*path` route, which is no template), a Swagger UI asset, a body refused before routing.
 */
export function routeTemplateOf(request: Request): string | undefined {
  const path: unknown = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string' || path.includes('*')) return undefined;
  return `${request.baseUrl}${path}`;
}

/**
 * Sets the answer's `X-Request-Id`: a trustworthy incoming one is kept (a proxy's id links its logs with ours),
 * otherwise a new one. Returns it.
 */
export function requestIdFor(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, requestId);
  return requestId;
}

/**
 * The status sent; for a request whose connection closed before its answer's head went out, the refusal written
 * to the connection instead (408 for a request that stalled past the server's timeouts, `answerClientErrors`), or
 * else 499 (the client went away, as nginx logs it), not the 200 Express holds until a handler sets one.
 */
function statusOf(request: Request, response: Response): number {
  if (response.headersSent) return response.statusCode;
  return refusedStatusOf(request.socket) ?? ClientGoneError.STATUS;
}

/** The line of a request whose answer never finished: timed out by the server (408), or its client went away. */
function messageOfCutShort(request: Request): string {
  return refusedStatusOf(request.socket) === 408 ? 'request timed out' : 'request aborted';
}

/**
 * What a request line says: the route template (the concrete path only when no route matched), never the
 * query string, headers or bodies, so neither keys nor search terms are written.
 */
function requestFields(request: Request, response: Response, durationMs: number): Record<string, unknown> {
  const caller = (request as AuthenticatedRequest).caller;
  return {
    method: request.method,
    route: routeTemplateOf(request) ?? pathOf(request),
    status: statusOf(request, response),
    durationMs,
    teamId: caller?.teamId,
    apiKeyId: caller?.apiKeyId,
  };
}

/**
 * One JSON line per request, with a request id that is also returned as `X-Request-Id`; a server fault's line
 * carries it too (`aboutRequest`). Faults (5xx) are logged at `error`, everything else at
 * `info`, so `LOG_LEVEL=warn` drops the routine lines. Written when the answer is finished (or the connection
 * closed first: "request aborted", with status 499 when no answer had started). Plain listeners rather than pino-http: its per-request child logger and
 * wrappers were a measurable share of a one-record read's CPU, for a line this small.
 */
export function requestLogger(logger: Logger): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdFor(request, response);
    let logged = false;
    const log = (): void => {
      if (logged) return;
      logged = true;
      const level = statusOf(request, response) >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const durationMs = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      logger[level](
        { requestId, ...requestFields(request, response, durationMs) },
        response.writableFinished ? 'request' : messageOfCutShort(request),
      );
    };
    response.once('finish', log);
    response.once('close', log);
    next();
  };
}
