import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** One read of the file, one write to the destination. */
const CHUNK_BYTES = 64 * 1024;
/** Reads ahead of the writes: one chunk on its way out while the next is read. */
const IN_FLIGHT = 2;
/** Free chunks kept between downloads (2 MiB at most); more are left to the garbage collector. */
const POOL_LIMIT = 32;

const pool: Buffer[] = [];

const take = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
const give = (chunk: Buffer): void => {
  if (pool.length < POOL_LIMIT) pool.push(chunk);
};

/**
 * Writes the first `size` bytes of an open file to `destination` through a few reused chunks: a chunk is read
 * into again only once the destination has called back for its last write (its bytes are then out of the process),
 * so a download of any size allocates no buffer per chunk (a stream's new 64 KiB buffer per read would be garbage
 * the collector frees only later, the bulk of a large download's rise in memory). A destination that closes or
 * fails first rejects the promise; the chunks it still held are left to the collector, never reused.
 */
export async function writeFileTo(handle: FileHandle, size: number, destination: Writable): Promise<void> {
  const cleanups: Array<() => void> = [];
  const closed = new Promise<never>((_, reject) => {
    const onClose = (): void => reject(new Error('the destination closed before the whole file was written'));
    destination.once('close', onClose);
    destination.once('error', reject);
    cleanups.push(() => {
      destination.off('close', onClose);
      destination.off('error', reject);
    });
  });
  // Only awaited through `race`: a rejection while nothing waits on it is not unhandled.
  closed.catch(() => undefined);
  const race = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, closed]);
  const writing: Array<Promise<Buffer>> = [];
  try {
    let position = 0;
    while (position < size) {
      const chunk = writing.length < IN_FLIGHT ? take() : await race(writing.shift() as Promise<Buffer>);
      const length = Math.min(chunk.length, size - position);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      if (bytesRead === 0) throw new Error(`the file ended after ${position} of its ${size} bytes`);
      position += bytesRead;
      writing.push(written(destination, chunk, bytesRead));
    }
    for (const pending of writing.splice(0)) give(await race(pending));
  } finally {
    for (const cleanup of cleanups) cleanup();
    // Chunks still being written when this failed may yet be read by the destination: none goes back to the pool.
    for (const pending of writing) pending.catch(() => undefined);
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
