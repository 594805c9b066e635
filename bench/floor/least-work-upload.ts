import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type pg from 'pg';
import type { Caller } from './auth.js';
import { HttpError, sendJson } from './http.js';
import { named } from './statements.js';
import { outboxOf } from './work-orders.js';

/** `POST /v1/floor/least-work-upload/{workOrderId}`: an upload with the least work the contract allows (below). */
export const LEAST_WORK_UPLOAD_PATH = /^\/v1\/floor\/least-work-upload\/([0-9a-f-]{36})\/?$/i;

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-');

/**
 * About the least an upload must do to meet the contract's section "Attachments", each step done the cheapest way
 * this floor knows, by hand: a reference for what the upload target asks on this machine (docs/performance.md,
 * "Session 20"). The key (the floor's cached lookup, as every floor route), the one `file` part found in the
 * multipart body with `Buffer.indexOf` (no parser library, no text fields, no part headers beyond the first), its
 * type from the first bytes (PNG, JPEG or PDF), a SHA-256 and a size cap on the way, the bytes written under their
 * final name (no temporary name, no rename, no cleanup list kept before the first byte: a crash here leaves a file
 * no cleanup knows of), then one statement in autocommit: the row (with the work order's team and 100-attachment
 * checks), the event `attachment.created` and the work order's history entry. It skips what the service must also
 * do (the cleanup's list, the lock that makes the 100 limit hold under concurrent uploads, Idempotency-Key), so it
 * is a reference, not a rival: about the most a framework-free implementation could reach.
 */
export async function leastWorkUpload(
  request: IncomingMessage,
  response: ServerResponse,
  folder: string,
  pool: pg.Pool,
  caller: Caller,
  workOrderId: string,
): Promise<void> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  if (!boundary) throw new HttpError(415, 'Content-Type must be multipart/form-data with a boundary');
  const received = await receiveFile(
    request,
    Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`),
    folder,
    caller.teamId,
  );
  const id = randomUUID();
  const actor = JSON.stringify({ type: 'api_key', id: caller.apiKeyId, name: null });
  const { rows } = await named<{ object: string | null; count: number }>(pool, LEAST_WORK_UPLOAD_SQL, [
    caller.teamId,
    randomBytes(8).toString('hex'),
    actor,
    id,
    workOrderId,
    received.fileName,
    received.contentType,
    received.size,
    received.sha256,
    received.key,
  ]);
  if (rows[0]?.object == null) throw new HttpError(rows[0] ? 409 : 404, 'Work order not found or full');
  sendJson(response, 201, { data: JSON.parse(rows[0].object) as unknown });
}

interface Received {
  key: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** The type the first bytes show (PNG, JPEG or PDF), or '' for anything else. */
function typeOf(first: Buffer): string {
  if (first.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (first.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  if (first.subarray(0, PDF.length).equals(PDF)) return 'application/pdf';
  return '';
}

/**
 * The part's bytes to a new file (`key`, under the team's prefix as the service names its objects), hashed and
 * counted on the way; refusals are thrown once the body is read, and a body cut off removes its file.
 */
function receiveFile(request: IncomingMessage, delimiter: Buffer, folder: string, teamId: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const name = randomUUID();
    const path = join(folder, name);
    const hash = createHash('sha256');
    const file = createWriteStream(path, { highWaterMark: 256 * 1024 });
    let head: Buffer | undefined = Buffer.alloc(0);
    let fileName = 'file';
    // The file's first bytes, until there are enough to tell its type.
    let first: Buffer | undefined = Buffer.alloc(0);
    let contentType = '';
    let size = 0;
    // The last bytes seen, held back while they may be the start of the delimiter.
    let carry = Buffer.alloc(0);
    let done = false;
    let failure: HttpError | undefined;
    const write = (piece: Buffer): void => {
      if (piece.length === 0) return;
      if (first) {
        first = Buffer.concat([first, piece]);
        if (first.length >= PNG.length) {
          contentType = typeOf(first);
          if (!contentType) failure ??= new HttpError(415, 'file must be a JPEG, PNG or PDF');
          first = undefined;
        }
      }
      size += piece.length;
      if (size > MAX_FILE_BYTES) failure ??= new HttpError(413, 'file is larger than 10 MiB');
      if (failure) return;
      hash.update(piece);
      if (!file.write(piece)) {
        request.pause();
        file.once('drain', () => request.resume());
      }
    };
    const body = (chunk: Buffer): void => {
      if (done) return;
      // Joined with the held-back bytes (a few dozen at most), so a delimiter split over chunks of any size is found.
      const view = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const at = view.indexOf(delimiter);
      if (at >= 0) {
        write(view.subarray(0, at));
        done = true;
        return;
      }
      const keep = Math.min(view.length, delimiter.length - 1);
      write(view.subarray(0, view.length - keep));
      carry = Buffer.from(view.subarray(view.length - keep));
    };
    request.on('data', (chunk: Buffer) => {
      if (head === undefined) return body(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEADER_END);
      if (end < 0) return;
      const headers = head.subarray(0, end).toString('latin1');
      const rest = head.subarray(end + HEADER_END.length);
      head = undefined;
      if (!/(?:^|;\s*)name="file"/im.test(headers)) failure = new HttpError(400, 'file is required');
      fileName = /filename="([^"]*)"/i.exec(headers)?.[1] ?? fileName;
      body(rest);
    });
    request.on('end', () => {
      if (first) failure ??= new HttpError(415, 'file must be a JPEG, PNG or PDF');
      file.end();
      file.once('close', () => {
        if (failure || !done) reject(failure ?? new HttpError(400, 'malformed multipart body'));
        else resolve({ key: `${teamId}/${name}`, fileName, contentType, size, sha256: hash.digest('hex') });
      });
    });
    // A client gone mid-body (a round of the load ending): the file is closed and removed, not left open.
    request.on('close', () => {
      if (request.complete) return;
      file.destroy();
      void unlink(path).catch(() => undefined);
      reject(new HttpError(400, 'the body was cut off'));
    });
    file.on('error', reject);
  });
}

/**
 * The row, the event (with its webhook fan-out) and the history entry in one statement ($1 team, $2 the event id's random part, $3 the actor,
 * $4 id, $5 work order, $6 file name, $7 content type, $8 size, $9 sha256, $10 storage key). No row when the work
 * order is not the team's; `object` NULL when it already holds 100.
 */
const LEAST_WORK_UPLOAD_SQL = `WITH w AS (
       SELECT w.id, (SELECT count(*)::int FROM work_order_attachments c
                      WHERE c.team_id = $1 AND c.work_order_id = w.id) AS count
         FROM work_orders w WHERE w.team_id = $1 AND w.id = $5::uuid),
     a AS (
       INSERT INTO work_order_attachments
         (team_id, id, work_order_id, file_name, content_type, size, sha256, storage_key, created_by)
       SELECT $1, $4::uuid, w.id, $6::text, $7::text, $8::int, $9::text, $10::text, $3::jsonb FROM w WHERE w.count < 100
       RETURNING *),
     answer AS (
       SELECT a.id, a.work_order_id, a.created_at AS at,
              json_build_object('id', a.id, 'teamId', a.team_id, 'workOrderId', a.work_order_id, 'noteId', a.note_id,
                'fileName', a.file_name, 'contentType', a.content_type, 'size', a.size, 'sha256', a.sha256,
                'description', a.description, 'createdBy', a.created_by,
                'createdAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text AS object
         FROM a),
     ${outboxOf('attachment.created', 'answer', `'{"object":' || answer.object || '}'`, {
       type: 'attachment_added',
       workOrderId: 'answer.work_order_id',
       changes: 'NULL::jsonb',
       subjectId: 'answer.id',
     })}
     SELECT (SELECT object FROM answer) AS object, w.count FROM w`;
