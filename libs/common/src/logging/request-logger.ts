import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../auth/caller.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * One JSON line per request on stdout, with a request id that is also returned as `X-Request-Id`.
 * Only the path is logged (no query string, no headers), so neither keys nor search terms are written.
 */
export function requestLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const incoming = request.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    response.setHeader('X-Request-Id', requestId);
    if (level === 'silent' || level === 'warn' || level === 'error') {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const caller = (request as AuthenticatedRequest).caller;
      write(
        `${JSON.stringify({
          time: new Date().toISOString(),
          level: response.statusCode >= 500 ? 'error' : 'info',
          msg: 'request',
          requestId,
          method: request.method,
          path: request.path,
          status: response.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          teamId: caller?.teamId,
          apiKeyId: caller?.apiKeyId,
        })}\n`,
      );
    });
    next();
  };
}
