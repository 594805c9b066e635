import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { basename } from 'node:path';
import { finished, Readable } from 'node:stream';
import {
  BadRequestException,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import busboy from 'busboy';
import { bodyCutOff } from '@app/common';
import { ACCEPTED_TYPES, contentTypeOf, declaredTypeOf, SNIFF_BYTES, type AcceptedType } from './content-type.js';
import { uploadGarbage } from './upload-garbage.js';

/** At most this many bytes per file (CONTRACT "Attachments"). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** How much of an upload may wait in each stream between the socket and the storage (a few socket reads). */
export const STREAM_HWM = 256 * 1024;
/** A file name is kept for display, at most this many characters. */
export const MAX_FILE_NAME = 255;

/** The stored file: what its bytes showed. */
export interface ReceivedFile {
  fileName: string;
  contentType: AcceptedType;
  size: number;
  sha256: string;
}

export interface ReceivedUpload {
  file?: ReceivedFile;
  /** The text fields, by name (the last of a repeated one). */
  fields: Record<string, string>;
  /**
   * Every part as it came, in order, a file by its bytes: what a refusal of this upload is stored under for an
   * Idempotency-Key (a refused upload's retry sends the same parts; a corrected one is another request, 422).
   */
  partsDigest: string;
}

/** What a file name in a legacy form charset most likely was (every byte maps to a character). */
const WINDOWS_1252 = new TextDecoder('windows-1252');
/** UTF-8 bytes, refused rather than replaced with U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NOT_ASCII = /[\u0080-\uffff]/;
/** Characters only a decoded text holds: busboy's undecoded text (`latin1`) has one character per byte. */
const BEYOND_A_BYTE = /[\u0100-\uffff]/;

/** Bytes read as Windows-1252: streamed, then flushed (a one-shot decode reads 0x80–0x9F as Latin-1 on some Node versions). */
function windows1252(bytes: Buffer): string {
  return WINDOWS_1252.decode(bytes, { stream: true }) + WINDOWS_1252.decode();
}

/**
 * A part's name or file name as busboy hands it over: undecoded for a plain `filename="…"` (`defParamCharset:
 * 'latin1'`, one character per byte), decoded for an RFC 5987 `filename*=UTF-8''…`. Raw bytes are read as UTF-8, as
 * browsers and curl send them, or else as Windows-1252 (a form in a legacy charset): the name is for display only,
 * so it is never a reason to refuse the file, and never stored as U+FFFD. busboy does not say which of the two
 * parameters it read, so a `filename*` whose decoded text is only characters U+0080–U+00FF that happen to spell
 * UTF-8 (`Ã©`) is read once more (`é`): the price of reading the raw names every browser sends.
 */
export function partNameText(text: string): string {
  if (!NOT_ASCII.test(text) || BEYOND_A_BYTE.test(text)) return text;
  const bytes = Buffer.from(text, 'latin1');
  try {
    return UTF8.decode(bytes);
  } catch {
    return windows1252(bytes);
  }
}

/** C1 control characters: what busboy's Latin-1 reading makes of Windows-1252's € ‚ ƒ „ … “ ” (0x80–0x9F). */
const C1 = /[\u0080-\u009f]/;

/**
 * A text field's value as busboy decoded it, or a fault naming the field. busboy decodes a value as UTF-8, or in the
 * charset its part declares, putting U+FFFD where the bytes are not text in it; it reads UTF-8, UTF-16LE and, as
 * Latin-1, ISO-8859-1, Windows-1252 and US-ASCII, and gives nothing for any other charset. So: U+FFFD is refused
 * (stored so, the text would be lost unseen; one sent as such marks text already lost), no value is refused, and
 * C1 control characters are read again as Windows-1252, as the WHATWG Encoding standard reads those three labels
 * (`€5` declared windows-1252 is `€5`, not U+0080 and `5`).
 */
export function fieldText(name: string, value: string | undefined): { text: string } | { fault: string } {
  if (value === undefined) {
    return {
      fault:
        `${name} must be UTF-8 text (its part names a charset this API does not read; it reads UTF-8, UTF-16LE, ` +
        'ISO-8859-1 and Windows-1252)',
    };
  }
  if (value.includes('\uFFFD'))
    return { fault: `${name} must be UTF-8 text (its bytes are not: read so, they were U+FFFD)` };
  if (C1.test(value) && !BEYOND_A_BYTE.test(value)) return { text: windows1252(Buffer.from(value, 'latin1')) };
  return { text: value };
}

/** Path parts stripped (either slash), control characters dropped, cut to 255 characters. */
export function displayName(raw: string | undefined): string {
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    .replace(/[\p{Cc}]/gu, '')
    .trim();
  return [...(name || 'file')].slice(0, MAX_FILE_NAME).join('');
}

/**
 * "The same body" of an upload for an Idempotency-Key (CONTRACT "Safe retries"): the same file, by its bytes and
 * display name, and the same `noteId` and `description` as checked (trimmed; `noteId` in lower case); the multipart
 * boundary and the part order do not matter. The same digest for an upload stored and for one refused.
 */
export function uploadDigest(
  sha256: string | null,
  fileName: string | null,
  noteId: string | undefined | null,
  description: string | undefined | null,
): string {
  const same = [sha256, fileName, noteId?.trim().toLowerCase() || null, description?.trim() || null];
  return createHash('sha256').update(JSON.stringify(same)).digest('hex');
}

/** The digest of what a refused upload sent (`uploadDigest`), for refusals made once its body had been read. */
const refusedDigests = new WeakMap<object, string>();

/** The digest of the upload `refusal` refused, when the body was read before it (`receiveUpload`). */
export function refusedUploadDigestOf(refusal: unknown): string | undefined {
  return typeof refusal === 'object' && refusal !== null ? refusedDigests.get(refusal) : undefined;
}

/** Records what a refused upload sent, for `refusedUploadDigestOf`. */
export function setRefusedUploadDigest(refusal: unknown, digest: string): void {
  if (typeof refusal === 'object' && refusal !== null) refusedDigests.set(refusal, digest);
}

/** The file part as far as it was read: its hash (over every byte, refused or not) and its display name. */
interface SeenFile {
  hash: Hash;
  fileName: string;
  sha256?: string;
}

const sha256Of = (seen: SeenFile): string => (seen.sha256 ??= seen.hash.digest('hex'));

const ACCEPTED = `JPEG, PNG, WebP, HEIC or PDF (${ACCEPTED_TYPES.join(', ')})`;
/** The refusal of a file whose bytes are of no accepted type (415). */
export const NOT_ACCEPTED = `file must be ${ACCEPTED}, decided from its bytes`;
/** The refusal of a file over the limit (413). */
export const TOO_LARGE = 'file must be at most 10 MiB';

/**
 * Reads a `multipart/form-data` request as it arrives: the `file` part goes to `store` as a stream (its first bytes
 * decide its type, a SHA-256 and a byte count are taken on the way, more than 10 MiB aborts it), the other parts
 * are small text fields. The request is read to its end whatever happens, so the answer can be sent; a refusal
 * rejects after `store` has failed (nothing stored).
 */
export function receiveUpload(
  request: IncomingMessage,
  store: (body: Readable) => Promise<void>,
): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    // A client gone before its body was looked at (while the work order was checked): its stream will say nothing
    // more, not even `close`, so nothing below would ever settle.
    if (request.destroyed || request.readableAborted) {
      reject(bodyCutOff());
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // A file part's chunks go on while the storage is still writing earlier ones (not one 64 KiB piece at a time).
        fileHwm: STREAM_HWM,
        // Names as their bytes (one character per byte), read by `partNameText`: busboy's own UTF-8 decoding would
        // turn a name in a legacy charset into U+FFFD. (Values stay busboy's: a part may declare its charset.)
        defParamCharset: 'latin1',
        // busboy signals its limit once a file reaches it, not past it: one byte more, so exactly 10 MiB passes.
        limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
      });
    } catch {
      reject(new UnsupportedMediaTypeException('Content-Type must be multipart/form-data with a boundary'));
      return;
    }
    // No prototype: a field named __proto__ is a field like any other (refused as unknown), not a silent no-op.
    const fields = Object.create(null) as Record<string, string>;
    let failure: HttpException | Error | undefined;
    // Never rejects: a failure is kept in `failure`. (It is awaited only once the request has ended, and a promise
    // rejected with no handler by then would be an unhandled rejection, which stops the process.)
    let stored: Promise<ReceivedFile | undefined> | undefined;
    // Every part as it came, in order (a file by its bytes), for the digest of a refused upload (`partsDigest`).
    const parts: Array<
      | [kind: 'field', name: string, value: string | null]
      | [kind: 'file', name: string, info: busboy.FileInfo, seen: SeenFile]
    > = [];
    const partsDigest = (): string =>
      createHash('sha256')
        .update(
          JSON.stringify(
            parts.map((part) =>
              part[0] === 'field'
                ? part
                : ['file', part[1], part[2].filename ?? null, part[2].mimeType, sha256Of(part[3])],
            ),
          ),
        )
        .digest('hex');
    const fail = (error: HttpException | Error): void => {
      failure ??= error;
    };

    parser.on('field', (rawName, decoded: string | undefined, info) => {
      const name = partNameText(rawName);
      const read = fieldText(name, decoded);
      // A refused value is digested as what busboy made of it (null when nothing): never as another value's text.
      const value = 'text' in read ? read.text : (decoded ?? null);
      parts.push(['field', name, value]);
      // A part named file without a file name is read as text: the client sent the file's contents as a field.
      // (Said first: a real file sent so is over the fields' size, and "file is too long" would mislead.)
      if (name === 'file') {
        fail(new BadRequestException('file must be sent as a file: a part named file with a filename'));
      }
      if (info.valueTruncated) fail(new BadRequestException(`${name} is too long`));
      // (A value cut at the fields' size may end inside a character: it is too long, whatever its bytes.)
      else if ('fault' in read) fail(new BadRequestException(read.fault));
      // One value per field: with two, which one was meant is a guess (the last would win silently).
      if (Object.hasOwn(fields, name)) fail(new BadRequestException(`${name} must be sent once`));
      fields[name] = value ?? '';
    });
    parser.on('file', (rawName, file, info) => {
      const name = partNameText(rawName);
      const fileName = info.filename === undefined ? undefined : partNameText(info.filename);
      const seen: SeenFile = { hash: createHash('sha256'), fileName: displayName(fileName) };
      parts.push(['file', name, info, seen]);
      if (name !== 'file' || stored || failure) {
        if (name !== 'file')
          fail(new BadRequestException(`Unknown part ${name}: the file goes in the part named file`));
        // Dropped, but heard: busboy fails the part it is in when the body is cut off, and a stream's error with no
        // listener is an uncaught exception, which stops the process. Its bytes are hashed, for `partsDigest`.
        file.on('error', () => undefined);
        file.on('data', (chunk: Buffer) => seen.hash.update(chunk));
        return;
      }
      stored = storeFile(file, info, store, seen).catch((error: Error) => {
        fail(error);
        return undefined;
      });
    });
    parser.on('filesLimit', () => fail(new BadRequestException('Send one file per request')));
    parser.on('fieldsLimit', () => fail(new BadRequestException('Too many fields')));
    parser.on('partsLimit', () => fail(new BadRequestException('Too many parts')));
    parser.on('error', (error: Error) => {
      fail(new BadRequestException(`Malformed multipart body: ${error.message}`));
      request.unpipe(parser);
      request.resume();
      if (request.readableEnded) void settle();
      else request.once('end', () => void settle());
    });
    parser.on('close', () => void settle());
    // A client that goes away mid-upload: the file part fails (its partial object removed), the promise settles.
    // Read to its end, not merely arrived (`complete`): a body that arrived whole but still waits unread behind a
    // slow storage is lost with its request all the same, and nothing more comes from it.
    request.once('close', () => {
      if (!request.readableEnded) parser.destroy(new Error('the upload was interrupted before its end'));
    });

    let settled = false;
    async function settle(): Promise<void> {
      if (settled) return;
      settled = true;
      const file = await stored;
      if (failure) {
        // What was sent, for an Idempotency-Key's stored refusal (only kept when the body was read to its end).
        setRefusedUploadDigest(failure, partsDigest());
        reject(failure);
      } else resolve({ file, fields, partsDigest: partsDigest() });
    }
    request.pipe(parser);
  });
}

/**
 * The file part's bytes into `store`, checked as they pass: its first `SNIFF_BYTES` decide its type before `store`
 * is called, a SHA-256 and a byte count are taken on the way, more than 10 MiB fails the stream given to `store`.
 * One set of listeners for the part's whole life: a part may end (even emit `end`) while its first bytes are still
 * being looked at, so nothing is detached and re-attached in between. The part is read to its end whatever
 * happens (busboy waits for every file stream to end before it finishes the request).
 */
function storeFile(
  file: Readable & { truncated?: boolean },
  info: busboy.FileInfo,
  store: (body: Readable) => Promise<void>,
  seen: SeenFile,
): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    // Counted in flight until the part has been read to its end, failed or been destroyed, for the collections' pace.
    finished(file, uploadGarbage.started());
    const { hash } = seen;
    const head: Buffer[] = [];
    let size = 0;
    let body: Readable | undefined;
    // Set once the part is refused or its storage failed: the rest of it is read and dropped.
    let failure: Error | undefined;
    // While `store` runs, a refusal waits for it to fail (and remove what it wrote) before it is answered.
    let storing = false;

    const refuse = (error: Error): void => {
      if (failure) return;
      failure = error;
      body?.destroy(error);
      file.resume();
      if (!storing) reject(error);
    };
    const start = (): void => {
      const bytes = Buffer.concat(head);
      const contentType = contentTypeOf(bytes);
      const declared = declaredTypeOf(info.mimeType);
      if (!contentType || (declared && declared !== contentType)) {
        refuse(
          new UnsupportedMediaTypeException(
            contentType ? `file is declared ${info.mimeType} but its bytes are ${contentType}` : NOT_ACCEPTED,
          ),
        );
        return;
      }
      // The part's own chunks, pushed as they come (no second stream to write them through): while the storage is
      // behind, the part waits (`pause`), and reading on asks for more (`resume`).
      const stream = new Readable({
        highWaterMark: STREAM_HWM,
        read: () => {
          if (!failure) file.resume();
        },
      });
      // Its errors are the refusals `refuse` already reports; `store` listens for them once it reads the stream, but
      // a refusal can come first (a client gone while the storage opens its file), which must not go unheard.
      stream.on('error', () => undefined);
      body = stream;
      stream.push(bytes);
      storing = true;
      store(stream).then(
        () => {
          storing = false;
          if (failure) reject(failure);
          else resolve({ fileName: seen.fileName, contentType, size, sha256: sha256Of(seen) });
        },
        (error: Error) => {
          storing = false;
          refuse(error);
          reject(failure ?? error);
        },
      );
    };

    file.on('data', (chunk: Buffer) => {
      uploadGarbage.received(chunk.length);
      // Hashed even once refused: a refusal stored under an Idempotency-Key is known by the whole file it refused.
      hash.update(chunk);
      if (failure) return;
      size += chunk.length;
      if (!body) {
        head.push(chunk);
        if (size >= SNIFF_BYTES) start();
      } else if (!body.push(chunk)) file.pause();
    });
    file.on('limit', () => refuse(new PayloadTooLargeException(TOO_LARGE)));
    file.on('end', () => {
      if (failure) return;
      if (!body) start();
      body?.push(null);
    });
    file.on('error', (error: Error) => refuse(error));
  });
}
