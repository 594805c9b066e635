import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { runWithRequestId } from './request-context.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The path without its query string, as the client sent it (the `/v1` prefix included). */
export function pathOf(request: Request): string {
  const url = request.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The route the request matched, as declared (`/v1/work-orders/:workOrderId`), once it has been routed;
 * `undefined` when no route matched: an unknown path (Nest answers those under `/v1` from a catch-all
 * `*path` route, which is no template), a Swagger UI asset, a body refused before routing.
 */
export function routeTemplateOf(request: Request): string | undefined {
  const path: unknown = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string' || path.includes('*')) return undefined;
  return `${request.baseUrl}${path}`;
}

/** A trustworthy incoming `X-Request-Id` is kept (a proxy's id links its logs with ours); otherwise a new one. */
function requestIdFor(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', requestId);
  return requestId;
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
    status: response.statusCode,
    durationMs,
    teamId: caller?.teamId,
    apiKeyId: caller?.apiKeyId,
  };
}

/**
 * One JSON line per request (pino-http), with a request id that is also returned as `X-Request-Id` and is
 * attached to whatever else is logged while the request is handled. Faults (5xx) are logged at `error`,
 * everything else at `info`, so `LOG_LEVEL=warn` drops the routine lines.
 */
export function requestLogger(logger: Logger): (request: Request, response: Response, next: NextFunction) => void {
  const started = new WeakMap<Request, bigint>();
  const elapsedMs = (request: Request): number => {
    const start = started.get(request);
    return start === undefined ? 0 : Number((process.hrtime.bigint() - start) / 1000n) / 1000;
  };
  const logRequest = pinoHttp<Request, Response>({
    logger,
    customAttributeKeys: { reqId: 'requestId' },
    // The id is the only per-request binding: pino-http's child logger with the whole request is never
    // used, so its request serialiser writes nothing (and costs nothing).
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: () => undefined },
    customLogLevel: (_request, response) => (response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (request, response) => (response.writableFinished ? 'request' : 'request aborted'),
    customErrorMessage: () => 'request',
    customSuccessObject: (request, response) => requestFields(request, response, elapsedMs(request)),
    customErrorObject: (request, response) => requestFields(request, response, elapsedMs(request)),
  });
  return (request, response, next) => {
    started.set(request, process.hrtime.bigint());
    const requestId = requestIdFor(request, response);
    // pino-http takes an id already on the request as the line's `requestId`.
    request.id = requestId;
    logRequest(request, response, () => runWithRequestId(requestId, next));
  };
}
