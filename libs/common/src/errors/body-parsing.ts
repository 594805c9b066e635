import type { NextFunction, Request, Response } from 'express';

export const MAX_BODY_BYTES = 1_048_576;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** Before parsing: a body must be declared as JSON. */
export function requireJsonContentType(request: Request, response: Response, next: NextFunction): void {
  if (BODY_METHODS.has(request.method) && hasBody(request) && !request.is('application/json')) {
    response.status(415).json({ error: 'Content-Type must be application/json' });
    return;
  }
  next();
}

/** After parsing: a write's body is a JSON object (an absent one counts as `{}`). */
export function requireObjectBody(request: Request, response: Response, next: NextFunction): void {
  if (BODY_METHODS.has(request.method)) {
    if (request.body === undefined) request.body = {};
    if (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body)) {
      response.status(400).json({ error: 'Request body must be a JSON object' });
      return;
    }
  }
  next();
}

/** Parser failures as `{error}`: malformed JSON is 400, an over-large body 413. */
export function bodyParserErrors(error: unknown, _request: Request, response: Response, next: NextFunction): void {
  if (response.headersSent) {
    next(error);
    return;
  }
  const failure = error as { type?: string; status?: number; message?: string };
  switch (failure.type) {
    case 'entity.parse.failed':
      response.status(400).json({ error: `Malformed JSON in request body: ${failure.message ?? 'parse error'}` });
      return;
    case 'entity.too.large':
      response.status(413).json({ error: `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB)` });
      return;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      response.status(415).json({ error: 'Unsupported body encoding: send UTF-8 JSON' });
      return;
    default:
      if (failure.status && failure.status >= 400 && failure.status < 500) {
        response.status(failure.status).json({ error: 'Malformed request body' });
        return;
      }
      response.status(500).json({ error: 'Internal server error' });
  }
}
