import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileTo, writeStreamToFile } from './file-chunks.js';

/**
 * A destination that takes each chunk's bytes only when it completes the write, a turn of the loop later: a chunk
 * read into again before its write completed would show here as wrong bytes.
 */
class Collector extends Writable {
  readonly copies: Buffer[] = [];
  readonly given: Buffer[] = [];

  override _write(chunk: Buffer, _: BufferEncoding, done: (error?: Error | null) => void): void {
    this.given.push(chunk);
    setImmediate(() => {
      this.copies.push(Buffer.from(chunk));
      done();
    });
  }
}

describe('writeFileTo', () => {
  let folder: string;
  const bytes = randomBytes(5 * 64 * 1024 + 123);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'file-chunks-'));
    await writeFile(join(folder, 'file'), bytes);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('writes the exact bytes through a few reused chunks, each written again only after its write completed', async () => {
    const handle = await open(join(folder, 'file'), 'r');
    const destination = new Collector();
    try {
      await writeFileTo(handle, bytes.length, destination);
    } finally {
      await handle.close();
    }
    expect(Buffer.compare(Buffer.concat(destination.copies), bytes)).toBe(0);
    // Six writes over at most two distinct pieces of memory: no new buffer per chunk.
    expect(destination.given).toHaveLength(6);
    expect(new Set(destination.given.map((chunk) => chunk.buffer)).size).toBeLessThanOrEqual(2);
    expect(destination.writableEnded).toBe(false);
  });

  it('stops with an error when the destination closes before the end', async () => {
    const handle = await open(join(folder, 'file'), 'r');
    const destination = new Collector();
    const write = destination._write.bind(destination);
    destination._write = (chunk, encoding, done) => {
      if (destination.given.length === 2) destination.destroy();
      else write(chunk, encoding, done);
    };
    try {
      await expect(writeFileTo(handle, bytes.length, destination)).rejects.toThrow();
    } finally {
      await handle.close();
    }
    expect(destination.given.length).toBeLessThan(6);
  });

  it('refuses a file shorter than the size it was given', async () => {
    const handle = await open(join(folder, 'file'), 'r');
    try {
      await expect(writeFileTo(handle, bytes.length + 10, new Collector())).rejects.toThrow(/file ended/);
    } finally {
      await handle.close();
    }
  });
});

describe('writeStreamToFile', () => {
  let folder: string;
  // Several slabs and a remainder, in chunks of uneven sizes (as socket reads come).
  const bytes = randomBytes(3 * 256 * 1024 + 70_001);
  const chunksOf = (data: Buffer): Buffer[] => {
    const chunks: Buffer[] = [];
    for (let at = 0, size = 1; at < data.length; at += size, size = (size * 7 + 4093) % 90_000) {
      chunks.push(Buffer.from(data.subarray(at, at + size)));
    }
    return chunks;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'stream-to-file-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  async function written(name: string, body: Readable): Promise<Buffer> {
    const path = join(folder, name);
    const fd = openSync(path, 'wx');
    try {
      await writeStreamToFile(fd, body);
    } finally {
      closeSync(fd);
    }
    return readFile(path);
  }

  it('writes the exact bytes of a stream of uneven chunks', async () => {
    const chunks = chunksOf(bytes);
    expect(chunks.length).toBeGreaterThan(20);
    expect(Buffer.compare(await written('whole', Readable.from(chunks)), bytes)).toBe(0);
  });

  it('copies each chunk as it arrives: the source may reuse a chunk once it is handed over', async () => {
    const chunks = chunksOf(bytes);
    const source = Readable.from(chunks);
    const path = written('reused', source);
    // Listening after the writer: each chunk is overwritten right after the writer was handed it, as a pool would.
    source.on('data', (chunk: Buffer) => chunk.fill(0));
    expect(Buffer.compare(await path, bytes)).toBe(0);
    expect(chunks.every((chunk) => chunk.every((byte) => byte === 0))).toBe(true);
  });

  it('writes an empty stream as an empty file', async () => {
    expect((await written('empty', Readable.from([]))).length).toBe(0);
  });

  it("rejects with the source's error, once the writes under way have settled", async () => {
    const failing = new Readable({ read: () => undefined });
    const path = join(folder, 'failed');
    const fd = openSync(path, 'wx');
    const result = writeStreamToFile(fd, failing);
    for (const chunk of chunksOf(bytes).slice(0, 30)) failing.push(chunk);
    failing.destroy(new Error('the client went away'));
    await expect(result).rejects.toThrow('the client went away');
    // Settled: no write of this upload is still pending on the descriptor it is safe to close now.
    closeSync(fd);
  });

  it('rejects when the source is destroyed without an error before its end', async () => {
    const cut = new Readable({ read: () => undefined });
    const fd = openSync(join(folder, 'cut'), 'wx');
    try {
      const result = writeStreamToFile(fd, cut);
      cut.push(bytes.subarray(0, 1000));
      cut.destroy();
      await expect(result).rejects.toThrow(/closed before its end/);
    } finally {
      closeSync(fd);
    }
  });

  it("rejects with the disk's error (a descriptor not open for writing)", async () => {
    const path = join(folder, 'read-only');
    await writeFile(path, '');
    const fd = openSync(path, 'r');
    try {
      await expect(writeStreamToFile(fd, Readable.from(chunksOf(bytes)))).rejects.toThrow(/EBADF/);
    } finally {
      closeSync(fd);
    }
  });
});
