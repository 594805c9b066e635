import type { ReadStream } from 'node:fs';
import { finished } from 'node:stream';
import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig, ClientGoneError, setBodyDigest } from '@app/common';
import { importTooLarge, MAX_IMPORT_BYTES } from './import-receiver.js';
import { IMPORT_RESOURCES } from './import-resources.js';
import { spoolBody } from './spooled-body.js';

/** An import's body, received; `taken` once the route has it (then the route closes it). */
interface ReceivedImport {
  rows: ReadStream;
  taken: boolean;
}

const received = new WeakMap<Request, ReceivedImport>();

/** A body received whole whose client left before the route began to read it: the import is not made (499). */
const clientGone = (): ClientGoneError =>
  new ClientGoneError('The client went away before its import was taken; send it again');

/** The Content-Types an import's body may have (`ImportsController` refuses any other with 415). */
export const IMPORT_TYPES = ['text/csv', 'application/x-ndjson'];

/**
 * Receives an import's body into a temporary file before the write's interceptors open its transaction (guards run
 * before interceptors, after the global ones that authenticate the key and refuse a read-only one), so a client
 * sending its rows slowly holds no database connection: the rows are then read from the file, in the transaction,
 * at the disk's pace. A guard that never refuses by returning false: its refusals are thrown (413 past 20 MiB, 400
 * for a body cut off; 499 when the client left before the route could begin). A body the route refuses unread — another Content-Type (415), a declared length over the
 * limit (413), an unknown `resource` (400) — is left to it.
 */
@Injectable()
export class ReceiveImportGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<true> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.is(IMPORT_TYPES)) return true;
    if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) return true;
    const resource: unknown = request.query.resource;
    if (typeof resource !== 'string' || !IMPORT_RESOURCES.includes(resource)) return true;
    const body = await spoolBody(request, {
      limit: MAX_IMPORT_BYTES,
      tooLarge: importTooLarge,
      folder: this.config.IMPORT_SPOOL_DIR,
    });
    const kept: ReceivedImport = { rows: body.rows, taken: false };
    // Answered without its route (a replayed Idempotency-Key, a refused query), or its client gone before the route
    // began to read: the descriptor is closed here, and a route that still runs finds the rows gone (`clientGone`).
    finished(context.switchToHttp().getResponse<Response>(), () => {
      if (!kept.taken) kept.rows.destroy();
    });
    // "The same body" for an Idempotency-Key retry: the same bytes.
    setBodyDigest(request, body.digest);
    received.set(request, kept);
    return true;
  }
}

/**
 * The rows `ReceiveImportGuard` received for this request, now the route's to read and close; undefined when the
 * guard left the body to the route.
 */
export const ReceivedImportRows = createParamDecorator(
  (_: unknown, context: ExecutionContext): ReadStream | undefined => {
    const kept = received.get(context.switchToHttp().getRequest<Request>());
    if (!kept) return undefined;
    if (kept.rows.destroyed) throw clientGone();
    kept.taken = true;
    return kept.rows;
  },
);
