import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BadRequestException } from '@nestjs/common';

/** The prefix of a spooled body's file name (in the system's temporary folder unless told otherwise). */
export const SPOOL_FILE_PREFIX = 'property-portfolio-import-';

/** A request body received whole into a temporary file: read it as often as needed, then `remove` it. */
export interface SpooledBody {
  path: string;
  bytes: number;
  /** The SHA-256 of its bytes (lowercase hex). */
  digest: string;
  open(): Readable;
  /** Deletes the file; safe to repeat. */
  remove(): Promise<void>;
}

export interface SpoolOptions {
  /** More bytes than this refuse the body with `tooLarge()`. */
  limit: number;
  tooLarge: () => Error;
  /** Where the file goes: the system's temporary folder by default. */
  folder?: string;
}

/**
 * Receives a request's body into a new temporary file (readable by this user only), counted and hashed on the way,
 * so whatever reads it afterwards reads at the disk's pace, not the client's. Refuses a body over `limit` as soon as
 * it passes it, and one whose client goes away before its end (400); either way the file is deleted before the
 * refusal, and the rest of a body over the limit is read and dropped so the answer can still be sent.
 */
export function spoolBody(body: IncomingMessage, options: SpoolOptions): Promise<SpooledBody> {
  const path = join(options.folder ?? tmpdir(), `${SPOOL_FILE_PREFIX}${randomUUID()}`);
  const remove = (): Promise<void> => unlink(path).catch(() => undefined);
  const hash = createHash('sha256');
  let bytes = 0;
  return new Promise((resolve, reject) => {
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    let failed = false;
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      body.off('data', onData);
      body.resume();
      file.destroy();
      // The file is gone before the refusal is answered (a destroyed stream may still be opening it: after close).
      const removeThenReject = (): void => void remove().then(() => reject(error));
      if (file.closed) removeThenReject();
      else file.once('close', removeThenReject);
    };
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > options.limit) {
        fail(options.tooLarge());
        return;
      }
      hash.update(chunk);
      if (!file.write(chunk)) {
        body.pause();
        file.once('drain', () => {
          if (!failed) body.resume();
        });
      }
    };
    body.on('data', onData);
    body.once('end', () => {
      if (!failed) file.end();
    });
    body.once('close', () => {
      if (!body.complete) fail(new BadRequestException('The request body ended before all of it arrived'));
    });
    body.once('error', fail);
    file.once('error', fail);
    file.once('finish', () => {
      if (failed) return;
      resolve({ path, bytes, digest: hash.digest('hex'), open: () => createReadStream(path), remove });
    });
  });
}
