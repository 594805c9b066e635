import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream';
import { bodyCutOff, ClientGoneError } from '@app/common';

/** The prefix of a spooled body's file name (in the system's temporary folder unless told otherwise). */
export const SPOOL_FILE_PREFIX = 'property-portfolio-import-';

/** A request body received whole, to be read from the start through `rows` (a descriptor its file no longer needs). */
export interface SpooledBody {
  bytes: number;
  /** The SHA-256 of its bytes (lowercase hex). */
  digest: string;
  /** The bytes, from an open descriptor: the file itself is already deleted. Destroy it if it is not read to its end. */
  rows: ReadStream;
}

/** The folder spooled bodies go to: `folder` (IMPORT_SPOOL_DIR) if set, the system's temporary folder otherwise. */
export function spoolFolder(folder: string | undefined): string {
  return folder ?? tmpdir();
}

export interface SpoolOptions {
  /** More bytes than this refuse the body with `tooLarge()`. */
  limit: number;
  tooLarge: () => Error;
  /** Where the file goes (made if missing): the system's temporary folder by default. */
  folder?: string;
}

/**
 * Receives a request's body into a new temporary file (readable by this user only), counted and hashed on the way,
 * so whatever reads it afterwards reads at the disk's pace, not the client's. Once it is whole, the file is opened
 * for reading and deleted at once: nothing is left on disk, whatever happens to the request afterwards, and the
 * descriptor keeps the bytes until `rows` is read or destroyed. Refuses a body over `limit` as soon as it passes it,
 * and one whose client goes away before its end (400); either way the file is deleted before the refusal, and the
 * rest of a body over the limit is read and dropped so the answer can still be sent.
 */
export async function spoolBody(body: IncomingMessage, options: SpoolOptions): Promise<SpooledBody> {
  const folder = spoolFolder(options.folder);
  if (options.folder) await mkdir(folder, { recursive: true });
  const path = join(folder, `${SPOOL_FILE_PREFIX}${randomUUID()}`);
  const remove = (): Promise<void> => unlink(path).catch(() => undefined);
  const { bytes, digest } = await receive(body, path, options, remove);
  const rows = createReadStream(path);
  try {
    await once(rows, 'open');
  } finally {
    await remove();
  }
  return { bytes, digest, rows };
}

/** The body into the file at `path`: its size and SHA-256; on a refusal, the file removed first. */
function receive(
  body: IncomingMessage,
  path: string,
  options: SpoolOptions,
  remove: () => Promise<void>,
): Promise<{ bytes: number; digest: string }> {
  // A client gone before the body was looked at (while the key was checked): its stream will say nothing more.
  if (body.destroyed || body.readableAborted) return Promise.reject(bodyCutOff());
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
    // A client that goes away before the body was read to its end (even one whose bytes had all arrived, still
    // waiting in the stream for the file): Node reports `aborted` (an error, once someone listens), then `close`.
    body.once('close', () => {
      if (!body.readableEnded) fail(bodyCutOff());
    });
    body.once('error', () => fail(bodyCutOff()));
    file.once('error', fail);
    file.once('finish', () => {
      if (!failed) resolve({ bytes, digest: hash.digest('hex') });
    });
  });
}

/**
 * A spooled body's rows between the guard that received them and the route that reads them. Whoever does not take
 * them leaves them to be closed when the answer goes out (or the client goes away): a replayed `Idempotency-Key`,
 * any failure before the route reads. The route takes them first thing, and closes them itself.
 */
export class ReceivedRows {
  private taken = false;
  /** Closed untaken: the answer went out without the route, or the client went away first. */
  private dropped = false;

  constructor(
    private readonly rows: ReadStream,
    answer: NodeJS.WritableStream,
  ) {
    finished(answer, () => {
      if (this.taken) return;
      this.dropped = true;
      rows.destroy();
    });
  }

  /** The rows, now the caller's to read and destroy; 499 when the client went away before they were taken. */
  take(): ReadStream {
    if (this.dropped) {
      throw new ClientGoneError('The client went away before its import was taken; send it again');
    }
    this.taken = true;
    return this.rows;
  }
}
