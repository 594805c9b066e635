import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig, setBodyDigest } from '@app/common';
import { importTooLarge, MAX_IMPORT_BYTES } from './import-receiver.js';
import { spoolBody, type SpooledBody } from './spooled-body.js';

const received = new WeakMap<Request, SpooledBody>();

/** The Content-Types an import's body may have (`ImportsController` refuses any other with 415). */
export const IMPORT_TYPES = ['text/csv', 'application/x-ndjson'];

/**
 * Receives an import's body into a temporary file before the write's interceptors open its transaction (guards run
 * before interceptors, after the global ones that authenticate the key and refuse a read-only one), so a client
 * sending its rows slowly holds no database connection: the rows are then read from the file, in the transaction,
 * at the disk's pace. The file goes once the answer is sent. A guard that never refuses by returning false: its
 * refusals are thrown (413 past 20 MiB, 400 for a body cut off); a body the route refuses unread (another
 * Content-Type, a declared length over the limit) is left to it.
 */
@Injectable()
export class ReceiveImportGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<true> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.is(IMPORT_TYPES)) return true;
    if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) return true;
    const body = await spoolBody(request, {
      limit: MAX_IMPORT_BYTES,
      tooLarge: importTooLarge,
      folder: this.config.IMPORT_SPOOL_DIR,
    });
    context
      .switchToHttp()
      .getResponse<Response>()
      .once('close', () => void body.remove());
    // "The same body" for an Idempotency-Key retry: the same bytes.
    setBodyDigest(request, body.digest);
    received.set(request, body);
    return true;
  }
}

/** The body `ReceiveImportGuard` received for this request; undefined when it left the body to the route. */
export const ReceivedImportBody = createParamDecorator(
  (_: unknown, context: ExecutionContext): SpooledBody | undefined =>
    received.get(context.switchToHttp().getRequest<Request>()),
);
