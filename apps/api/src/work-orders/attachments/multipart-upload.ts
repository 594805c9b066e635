import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { basename } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import {
  BadRequestException,
  HttpException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import busboy from 'busboy';
import { ACCEPTED_TYPES, contentTypeOf, declaredTypeOf, SNIFF_BYTES, type AcceptedType } from './content-type.js';

/** At most this many bytes per file (CONTRACT "Attachments"). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
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
}

/** Path parts stripped (either slash), control characters dropped, cut to 255 characters. */
export function displayName(raw: string | undefined): string {
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    .replace(/[\p{Cc}]/gu, '')
    .trim();
  return [...(name || 'file')].slice(0, MAX_FILE_NAME).join('');
}

const ACCEPTED = `JPEG, PNG, WebP, HEIC or PDF (${ACCEPTED_TYPES.join(', ')})`;

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
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
      });
    } catch {
      reject(new UnsupportedMediaTypeException('Content-Type must be multipart/form-data with a boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    let failure: HttpException | Error | undefined;
    let stored: Promise<ReceivedFile> | undefined;
    const fail = (error: HttpException | Error): void => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new BadRequestException(`${name} is too long`));
      fields[name] = value;
    });
    parser.on('file', (name, file, info) => {
      if (name !== 'file' || stored || failure) {
        if (name !== 'file')
          fail(new BadRequestException(`Unknown part ${name}: the file goes in the part named file`));
        file.resume();
        return;
      }
      stored = storeFile(file, info, store).catch((error: Error) => {
        fail(error);
        throw error;
      });
    });
    parser.on('filesLimit', () => fail(new BadRequestException('Send one file per request')));
    parser.on('fieldsLimit', () => fail(new BadRequestException('Too many fields')));
    parser.on('partsLimit', () => fail(new BadRequestException('Too many parts')));
    parser.on('error', (error: Error) => {
      fail(new BadRequestException(`Malformed multipart body: ${error.message}`));
      request.unpipe(parser);
      request.resume();
      request.once('end', () => void settle());
    });
    parser.on('close', () => void settle());

    let settled = false;
    async function settle(): Promise<void> {
      if (settled) return;
      settled = true;
      const file = stored && (await stored.catch(() => undefined));
      if (failure) reject(failure);
      else resolve({ file, fields });
    }
    request.pipe(parser);
  });
}

/** The file part's bytes into `store`, checked as they pass. */
async function storeFile(
  file: Readable & { truncated?: boolean },
  info: busboy.FileInfo,
  store: (body: Readable) => Promise<void>,
): Promise<ReceivedFile> {
  const head = await firstBytes(file, SNIFF_BYTES);
  const contentType = contentTypeOf(head.bytes);
  const declared = declaredTypeOf(info.mimeType);
  if (!contentType || (declared && declared !== contentType)) {
    file.resume();
    throw new UnsupportedMediaTypeException(
      contentType
        ? `file is declared ${info.mimeType} but its bytes are ${contentType}`
        : `file must be ${ACCEPTED}, decided from its bytes`,
    );
  }
  const hash = createHash('sha256');
  let size = 0;
  const body = new PassThrough();
  const count = (chunk: Buffer): void => {
    size += chunk.length;
    hash.update(chunk);
  };
  count(head.bytes);
  body.write(head.bytes);
  // Once the storage has failed (or the size limit hit), the rest of the part is read and dropped.
  body.on('close', () => file.resume());
  file.on('data', (chunk: Buffer) => {
    if (body.destroyed) return;
    count(chunk);
    if (!body.write(chunk)) {
      file.pause();
      body.once('drain', () => file.resume());
    }
  });
  file.on('limit', () => body.destroy(new PayloadTooLargeException(`file must be at most 10 MiB`)));
  file.on('end', () => {
    if (!body.destroyed) body.end();
  });
  file.on('error', (error: Error) => body.destroy(error));
  if (head.ended) body.end();
  else file.resume();
  try {
    await store(body);
  } catch (error) {
    file.resume();
    throw error;
  }
  return { fileName: displayName(info.filename), contentType, size, sha256: hash.digest('hex') };
}

/** Reads until `count` bytes (or the end) and pauses the stream; the bytes read so far, and whether it ended. */
function firstBytes(stream: Readable, count: number): Promise<{ bytes: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (ended: boolean): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      resolve({ bytes: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= count) {
        stream.pause();
        done(false);
      }
    };
    const onEnd = (): void => done(true);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}
