import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileTo } from './file-chunks.js';

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
