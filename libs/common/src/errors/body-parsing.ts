import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TextDecoder } from 'node:util';
import { BadRequestException } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { bearerToken } from '../auth/api-key.guard.js';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { findJsonShapeViolation } from '../validation/json-shape.js';

export const MAX_BODY_BYTES = 1_048_576;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const SHAPE_REFUSED = 'entity.shape.refused';

/** A streamed body (an upload, an import) whose client went away before all of it arrived. */
export function bodyCutOff(): BadRequestException {
  return new BadRequestException('The request body ended before all of it arrived');
}

/** A body refused before it is parsed: for its shape (depth, size in entries), or bytes that are no text. */
class BodyShapeError extends Error {
  readonly status = 400;
  readonly type = SHAPE_REFUSED;
}

const NOT_TEXT = 'Request body is not valid text in its charset (UTF-8 unless Content-Type names another)';

/**
 * The body's text as UTF-8 bytes: JSON may arrive in another UTF (body-parser accepts any `utf-*`). Bytes that
 * are no text in their charset are refused (400), not read with U+FFFD in their place and stored so.
 */
function utf8Of(raw: Buffer, charset: string): Uint8Array {
  if (charset === 'utf-8' || charset === 'utf8') {
    if (!isUtf8(raw)) throw new BodyShapeError(NOT_TEXT);
    return raw;
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw Object.assign(new Error(`unsupported charset "${charset}"`), { status: 415, type: 'charset.unsupported' });
  }
  try {
    return Buffer.from(decoder.decode(raw));
  } catch {
    throw new BodyShapeError(NOT_TEXT);
  }
}

/**
 * Runs on the raw body, after the size limit and before `JSON.parse`: a body nested too deeply or holding too
 * many entries is refused here, so no later pass over the parsed value can overflow the stack or block the
 * event loop. (`express.json` has no depth or key-count option.)
 */
function refuseUnreasonableShape(
  _request: IncomingMessage,
  _response: ServerResponse,
  raw: Buffer,
  charset: string,
): void {
  const violation = findJsonShapeViolation(utf8Of(raw, charset.toLowerCase()));
  if (violation) throw new BodyShapeError(violation.message);
}

/** The JSON body parser: at most 1 MiB, an object or array at the top, bounded in depth and entries. */
export function jsonBodyParser(): RequestHandler {
  return express.json({ limit: MAX_BODY_BYTES, strict: true, verify: refuseUnreasonableShape });
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Whether the guards will refuse this request whatever its body: no key they could accept (401, or an unknown
 * route's 404), a read-only key writing (403), a limit reached (429). Those come first: a body is refused before
 * the key only when it is malformed or too large to read (CONTRACT "Team isolation"), never for its Content-Type
 * or charset. Only when certain: a well-formed key the request gate did not look up (a failed lookup) is left to
 * the guard, and the 415 stays. (The gate, earlier in the chain, has identified the caller by now.)
 */
function guardsRefuseFirst(request: AuthenticatedRequest): boolean {
  if (request.rateLimited || request.authThrottled || request.keyRefused) return true;
  if (request.caller) return request.caller.access === 'read_only' && BODY_METHODS.has(request.method);
  return bearerToken(request.headers.authorization) === undefined;
}

/** Before parsing: a body must be declared as JSON (415), once the key has been accepted. */
export function requireJsonContentType(request: Request, response: Response, next: NextFunction): void {
  if (guardsRefuseFirst(request)) {
    // Left unparsed: the guards answer before anything reads the body.
    next();
    return;
  }
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
export function bodyParserErrors(error: unknown, request: Request, response: Response, next: NextFunction): void {
  if (response.headersSent) {
    next(error);
    return;
  }
  const failure = error as { type?: string; status?: number; message?: string };
  switch (failure.type) {
    case 'entity.parse.failed':
      response.status(400).json({ error: `Malformed JSON in request body: ${failure.message ?? 'parse error'}` });
      return;
    case SHAPE_REFUSED:
      response.status(400).json({ error: failure.message ?? 'Request body is too deeply nested or too large' });
      return;
    case 'entity.too.large':
      response.status(413).json({ error: `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB)` });
      return;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      // Refused before a byte was read; a request the guards refuse anyway gets their answer first.
      if (guardsRefuseFirst(request)) {
        next();
        return;
      }
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
