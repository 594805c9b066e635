import { write } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';

/**
 * Buffers allocated once and used again, so moving a file's bytes allocates no buffer per chunk: a new buffer per
 * chunk is garbage the collector frees only later, and while it waits it counts against V8's heap limit, which then
 * starts full collections of the whole heap (docs/performance.md, "Attachments"). At most `keep` free ones are kept;
 * more are left to the collector.
 */
class ChunkPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly chunkBytes: number,
    private readonly keep: number,
  ) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.chunkBytes);
  }

  give(chunk: Buffer): void {
    if (this.free.length < this.keep) this.free.push(chunk);
  }
}

/** A download's reads: one read of the file, one write to the destination; 2 MiB kept at most. */
const downloadChunks = new ChunkPool(64 * 1024, 32);
/** Reads ahead of the writes: one chunk on its way out while the next is read. */
const IN_FLIGHT = 2;

/** An upload's writes: several socket reads' worth per write to the disk; 8 MiB kept at most. */
const uploadSlabs = new ChunkPool(256 * 1024, 32);
/** Slabs being written to the disk per upload while the next fills; more waiting pauses the source. */
const SLABS_IN_FLIGHT = 2;
const cutShort = (): Error => new Error('the upload stream closed before its end');

/**
 * Writes the first `size` bytes of an open file to `destination` through a few reused chunks: a chunk is read
 * into again only once the destination has called back for its last write (its bytes are then out of the process),
 * so a download of any size allocates no buffer per chunk (a stream's new 64 KiB buffer per read would be garbage
 * the collector frees only later, the bulk of a large download's rise in memory). A destination that closes or
 * fails first, or a `signal` that aborts, rejects the promise; the chunks it still held are left to the collector,
 * never reused.
 */
export async function writeFileTo(
  handle: FileHandle,
  size: number,
  destination: Writable,
  signal?: AbortSignal,
): Promise<void> {
  const cleanups: Array<() => void> = [];
  const closed = new Promise<never>((_, reject) => {
    const onClose = (): void => reject(new Error('the destination closed before the whole file was written'));
    const onAbort = (): void => reject(new Error('the download was abandoned before the whole file was written'));
    if (signal?.aborted) onAbort();
    destination.once('close', onClose);
    destination.once('error', reject);
    signal?.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => {
      destination.off('close', onClose);
      destination.off('error', reject);
      signal?.removeEventListener('abort', onAbort);
    });
  });
  // Only awaited through `race`: a rejection while nothing waits on it is not unhandled.
  closed.catch(() => undefined);
  const race = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, closed]);
  const writing: Array<Promise<Buffer>> = [];
  try {
    let position = 0;
    while (position < size) {
      const chunk = writing.length < IN_FLIGHT ? downloadChunks.take() : await race(writing.shift() as Promise<Buffer>);
      const length = Math.min(chunk.length, size - position);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      if (bytesRead === 0) throw new Error(`the file ended after ${position} of its ${size} bytes`);
      position += bytesRead;
      const pending = written(destination, chunk, bytesRead);
      // Handled from the start: a destination that fails (a client gone) fails its pending writes while this awaits
      // something else, and a rejection with no handler then would be unhandled, which stops the process. Awaiting
      // `pending` still sees the failure.
      pending.catch(() => undefined);
      writing.push(pending);
    }
    while (writing.length > 0) downloadChunks.give(await race(writing.shift() as Promise<Buffer>));
  } finally {
    for (const cleanup of cleanups) cleanup();
    // The chunks still in `writing` when this failed may yet be read by the destination: they are left to the
    // collector, never given back to the pool.
  }
}

/** Writes `chunk`'s first `length` bytes; resolves with the chunk once the destination is done with them. */
function written(destination: Writable, chunk: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    destination.write(length === chunk.length ? chunk : chunk.subarray(0, length), (error) => {
      if (error) reject(error);
      else resolve(chunk);
    });
  });
}

/** Writes `length` bytes of `buffer` at `position` of a file; resolves once they are all written. */
export type WriteAt = (buffer: Buffer, length: number, position: number) => Promise<void>;

/**
 * Writes `body` from a file's start with `writeAt`, through a few reused slabs: each chunk is copied into the slab
 * being filled as it arrives (so the chunk, a new buffer of the HTTP parser's, is garbage at once and dies young), a
 * full slab is written while the next fills, and the source waits (`pause`) while `SLABS_IN_FLIGHT` are being
 * written (a single chunk larger than a slab is copied whole first, in as many slabs as it takes). Resolves once
 * every byte is written; rejects on the source's or a write's error, only after the writes under way have settled
 * (the file may then be closed safely).
 */
export function writeThroughSlabs(body: Readable, writeAt: WriteAt): Promise<void> {
  return new Promise((resolve, reject) => {
    // Destroyed before it could be listened to (a client gone while the file was being opened): no event will come.
    if (body.destroyed) {
      reject(body.errored ?? cutShort());
      return;
    }
    let slab = uploadSlabs.take();
    let filled = 0;
    let position = 0;
    let writing = 0;
    let ended = false;
    let settled = false;
    let failure: Error | undefined;

    const settle = (): void => {
      if (settled || writing > 0 || !(ended || failure)) return;
      settled = true;
      uploadSlabs.give(slab);
      if (failure) reject(failure);
      else resolve();
    };
    const fail = (error: Error): void => {
      failure ??= error;
      body.off('data', onData);
      body.pause();
      settle();
    };
    const flush = (): void => {
      if (filled === 0) return;
      const full = slab;
      const length = filled;
      writing += 1;
      writeAt(full, length, position).then(
        () => {
          writing -= 1;
          uploadSlabs.give(full);
          if (!failure && writing < SLABS_IN_FLIGHT) body.resume();
          settle();
        },
        (error: Error) => {
          writing -= 1;
          fail(error);
        },
      );
      position += length;
      slab = uploadSlabs.take();
      filled = 0;
      if (writing >= SLABS_IN_FLIGHT) body.pause();
    };
    const onData = (chunk: Buffer): void => {
      for (let offset = 0; offset < chunk.length;) {
        const copied = chunk.copy(slab, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === slab.length) flush();
      }
    };
    body.on('data', onData);
    body.once('end', () => {
      if (failure) return;
      flush();
      ended = true;
      settle();
    });
    body.once('error', fail);
    body.once('close', () => {
      if (!ended) fail(cutShort());
    });
  });
}

/** `WriteAt` for an open file descriptor: as many `fs.write` calls as the system takes. */
export function writeToDescriptor(fd: number): WriteAt {
  return (buffer, length, position) =>
    new Promise((resolve, reject) => {
      const from = (offset: number): void => {
        write(fd, buffer, offset, length - offset, position + offset, (error, written) => {
          if (error) reject(error);
          else if (written === 0) reject(new Error(`the disk took none of ${length - offset} bytes`));
          else if (offset + written < length) from(offset + written);
          else resolve();
        });
      };
      from(0);
    });
}
