import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { aboutRequest } from '../logging/request-context.js';
import { ClientGoneError, DomainError, DomainErrorKind } from './domain-errors.js';

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  not_found: HttpStatus.NOT_FOUND,
  invalid_reference: HttpStatus.BAD_REQUEST,
  conflict: HttpStatus.CONFLICT,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  gone: HttpStatus.GONE,
  client_gone: ClientGoneError.STATUS,
};

const ROUTE_NOT_FOUND = 'Route not found';

interface Failure {
  status: number;
  error: string;
}

function textOfHttpException(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

/** PostgreSQL error codes that are the caller's fault or a temporary condition, not a server bug. */
function describeDatabaseError(error: QueryFailedError<Error>): Failure | undefined {
  const code = (error.driverError as { code?: string } | undefined)?.code;
  switch (code) {
    case '22021':
    case '22P05':
      return { status: 400, error: 'A value contains characters that cannot be stored' };
    case '23503':
      return { status: 400, error: 'A referenced record does not exist' };
    case '57014':
      return { status: 503, error: 'The request took too long and was cancelled' };
    case '40001':
    case '40P01':
      return { status: 503, error: 'The request conflicted with another one; retry it' };
    case '0A000':
      // A prepared statement whose result columns a migration changed, refused inside a transaction (outside one,
      // NamedStatements prepares it again and retries). Nothing was written; the retry prepares it anew.
      return /cached plan must not change result type/.test(error.driverError.message)
        ? { status: 503, error: 'The database schema changed during the request; retry it' }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The database cannot be reached: refused or dropped connections (the server is down, restarting, or shut our
 * sessions), no connection within the pool's timeout, too many connections. The caller should retry: 503 with
 * `Retry-After`, never 500.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown: our session was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|ECONNREFUSED|ECONNRESET|the database system is (starting up|shutting down)/i;
export const DATABASE_UNAVAILABLE = 'The database is unavailable; retry shortly';
/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export function isDatabaseUnreachable(exception: unknown): boolean {
  // Duck-typed, not `instanceof Error`: socket errors come from Node's own realm (a different `Error` under a VM).
  if (typeof exception !== 'object' || exception === null) return false;
  const driver: unknown = exception instanceof QueryFailedError ? exception.driverError : exception;
  if (typeof driver !== 'object' || driver === null) return false;
  const { code, message, name } = driver as { code?: unknown; message?: unknown; name?: unknown };
  // TypeORM releases a transaction's connection when the server drops it; the transaction's next statement (or
  // its rollback) then finds it released. Nothing of that transaction committed: the server rolled it back.
  if (name === 'QueryRunnerAlreadyReleasedError' || name === 'QueryRunnerProviderAlreadyReleasedError') return true;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGES.test(message);
}

export function describeFailure(exception: unknown): Failure | undefined {
  if (isDatabaseUnreachable(exception)) return { status: 503, error: DATABASE_UNAVAILABLE };
  if (exception instanceof DomainError) {
    return { status: STATUS_OF_KIND[exception.kind], error: exception.message };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404 && /^Cannot [A-Z]+ /.test(exception.message)) {
      return { status, error: ROUTE_NOT_FOUND };
    }
    return { status, error: textOfHttpException(exception) };
  }
  if (exception instanceof QueryFailedError) {
    return describeDatabaseError(exception as QueryFailedError<Error>);
  }
  return undefined;
}

/** Pages for paths no route matched under a prefix a browser reads (set by the app: the dashboard). */
const unmatchedPages: Array<{ prefix: RegExp; html: () => string }> = [];

/** Answers paths no route matched under `prefix` with the HTML page `html` (404), not `{error}`. */
export function answerUnmatchedPathsWith(prefix: RegExp, html: () => string): void {
  if (!unmatchedPages.some((page) => page.prefix.source === prefix.source)) unmatchedPages.push({ prefix, html });
}

/** The 404 page for a path no route matched, when it lies under a prefix given one (`answerUnmatchedPathsWith`). */
export function unmatchedPageFor(path: string): string | undefined {
  return unmatchedPages.find((page) => page.prefix.test(path))?.html();
}

/**
 * Turns every failure into `{error}`: known ones keep their status and text, anything else is logged and
 * answered as a bare 500 so no stack trace or SQL reaches the caller.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    let failure = describeFailure(exception) ?? { status: 500, error: 'Internal server error' };
    // An unknown route under /v1 from a caller over the limit: the request gate left the 429 to be answered here.
    if (failure.error === ROUTE_NOT_FOUND && host.switchToHttp().getRequest<AuthenticatedRequest>().rateLimited) {
      failure = { status: 429, error: 'Rate limit exceeded' };
    }
    if (failure.error === DATABASE_UNAVAILABLE) {
      // One line per failed request would flood the log for the whole outage: the reason, without a stack.
      this.logger.warn(
        `503: ${exception instanceof Error ? exception.message : String(exception)}`,
        aboutRequest(response),
      );
    } else if (failure.status >= 500) {
      const text = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.logger.error(text, aboutRequest(response));
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (failure.status === 503) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    const page =
      failure.error === ROUTE_NOT_FOUND ? unmatchedPageFor(host.switchToHttp().getRequest<Request>().path) : undefined;
    if (page !== undefined) {
      response.status(404).type('html').send(page);
      return;
    }
    response.status(failure.status).json({ error: failure.error });
  }
}
