import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
} from '@nestjs/common';
import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  ApiInputPipe,
  AppConfig,
  deferRefusal,
  deferWithDigest,
  mayDeferRefusal,
  rawBodyDigest,
  setBodyDigest,
} from '@app/common';
import { CreateImportQuery } from './dto/create-import.query.js';
import { bodyEncoding } from './body-text.js';
import { importTooLarge, MAX_IMPORT_BYTES } from './import-receiver.js';
import { ReceivedRows, spoolBody } from './spooled-body.js';

/** What `ReceiveImportGuard` received: the rows, spooled, and the encoding they are read in. */
export interface ReceivedBody {
  rows: ReceivedRows;
  /** The WHATWG name of the body's declared charset (`bodyEncoding`), `utf-8` when none. */
  encoding: string;
}

const received = new WeakMap<Request, ReceivedBody>();

/** The Content-Types an import's body may have. */
export const IMPORT_TYPES = ['text/csv', 'application/x-ndjson'];
/** The 415 of a body of another Content-Type (its text is the OpenAPI example too). */
export const NOT_AN_IMPORT_TYPE = `Content-Type must be ${IMPORT_TYPES.join(' or ')}`;

/**
 * Receives an import's body into a temporary file before the write's interceptors open its transaction (guards run
 * before interceptors, after the global ones that authenticate the key and refuse a read-only one), so a client
 * sending its rows slowly holds no database connection: the rows are then read from the file, in the transaction,
 * at the disk's pace. A guard that never refuses by returning false: its refusals are thrown before any interceptor
 * runs, the body unread when refused at once (415 for another Content-Type or an unknown charset, 413 for a declared length over 20 MiB,
 * 400 for a query the route would refuse, in the route's own words), or as it arrives (413 past 20 MiB, 400 for a
 * body cut off); with an Idempotency-Key, all but the last are left to the key's transaction (`deferRefusal`).
 */
@Injectable()
export class ReceiveImportGuard implements CanActivate {
  /** The app's own input pipe, so a query refused here reads exactly as the route's refusal would. */
  private readonly queryPipe = new ApiInputPipe();

  constructor(private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<true> {
    const request = context.switchToHttp().getRequest<Request>();
    let encoding: string;
    try {
      encoding = await this.refuseAtOnce(request);
    } catch (error) {
      // With an Idempotency-Key, the refusal is answered inside the key's transaction, stored under the body's
      // Content-Type and bytes: read and hashed here, before that transaction holds a connection (rawBodyDigest).
      if (!mayDeferRefusal(request, error)) {
        // Refused before a byte of the body was read: the rest is read and dropped, so the refusal can be answered.
        request.resume();
        throw error;
      }
      if (await deferWithDigest(request, error, () => rawBodyDigest(request))) return true;
      // Read through already (or its client gone): nothing left to drop.
      throw error;
    }
    let body: Awaited<ReturnType<typeof spoolBody>>;
    try {
      body = await spoolBody(request, {
        limit: MAX_IMPORT_BYTES,
        tooLarge: importTooLarge,
        folder: this.config.IMPORT_SPOOL_DIR,
      });
    } catch (error) {
      // A body over 20 MiB refused as it arrived: with a key, answered in the key's transaction (its bytes were
      // read and dropped, so it has no digest to be stored under, and a retry runs anew). A body cut off: thrown.
      if (deferRefusal(request, error)) return true;
      throw error;
    }
    const rows = new ReceivedRows(body.rows, context.switchToHttp().getResponse<Response>());
    received.set(request, { rows, encoding });
    // "The same body" for an Idempotency-Key retry: the same bytes, read the same way (the format and the charset
    // decide what they say: a retry naming another charset is another request).
    setBodyDigest(request, importDigest(request, encoding, body.digest));
    return true;
  }

  /**
   * Throws what refuses the import without reading its body: the Content-Type, a declared length, the query. Else
   * the encoding its body is read in.
   */
  private async refuseAtOnce(request: Request): Promise<string> {
    if (!request.is(IMPORT_TYPES)) {
      throw new HttpException({ message: NOT_AN_IMPORT_TYPE }, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }
    // A charset no decoder knows: 415 now, not a body read for nothing.
    const encoding = bodyEncoding(request.headers['content-type']);
    if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) throw importTooLarge();
    await this.queryPipe.transform(request.query, { type: 'query', metatype: CreateImportQuery });
    return encoding;
  }
}

/** What an import sent, for its Idempotency-Key: its format, the encoding its bytes are read in, and their digest. */
function importDigest(request: Request, encoding: string, bytesDigest: string): string {
  const format = request.is('application/x-ndjson') ? 'ndjson' : 'csv';
  return hash('sha256', `${format}\n${encoding}\n${bytesDigest}`, 'hex');
}

/** The rows `ReceiveImportGuard` received for this request: the route takes them (`take`) before anything else. */
export const ReceivedImport = createParamDecorator((_: unknown, context: ExecutionContext): ReceivedBody | undefined =>
  received.get(context.switchToHttp().getRequest<Request>()),
);
