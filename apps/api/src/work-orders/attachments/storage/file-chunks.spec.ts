import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileTo, writeThroughSlabs, writeToDescriptor, type WriteAt } from './file-chunks.js';

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

const SLAB = 256 * 1024;
// Several slabs and a remainder, in chunks of uneven sizes (as socket reads come), none larger than a slab.
const uploaded = randomBytes(3 * SLAB + 70_001);
function chunksOf(data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, size = 1; at < data.length; at += size, size = (size * 7 + 4093) % 90_000) {
    chunks.push(Buffer.from(data.subarray(at, at + size)));
  }
  return chunks;
}

/**
 * A disk that takes a write's bytes only when the test completes it (copying them then, so a slab filled again before
 * its write completed shows as wrong bytes), and keeps count of the writes pending at once.
 */
class SlowDisk {
  readonly file = Buffer.alloc(uploaded.length);
  readonly pending: Array<{ buffer: Buffer; length: number; position: number; done: () => void }> = [];
  readonly slabsUsed = new Set<Buffer>();
  mostPending = 0;

  /** `writing`: the slabs being written to any disk of the test, shared by the disks of uploads side by side. */
  constructor(private readonly writing = new Set<Buffer>()) {}

  readonly writeAt: WriteAt = (buffer, length, position) =>
    new Promise((done) => {
      // A slab is written by one upload at a time, and only once it has been handed back.
      expect(this.writing.has(buffer)).toBe(false);
      this.writing.add(buffer);
      this.slabsUsed.add(buffer);
      this.pending.push({ buffer, length, position, done });
      this.mostPending = Math.max(this.mostPending, this.pending.length);
    });

  /** Completes the oldest pending write, if any. */
  completeOne(): void {
    const write = this.pending.shift();
    if (!write) return;
    write.buffer.copy(this.file, write.position, 0, write.length);
    this.writing.delete(write.buffer);
    write.done();
  }
}

const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** Completes the disk's writes one a turn until `writing` settles; its outcome. */
async function drive(disk: SlowDisk, writing: Promise<void>): Promise<{ error?: Error }> {
  let outcome: { error?: Error } | undefined;
  writing.then(
    () => (outcome = {}),
    (error: Error) => (outcome = { error }),
  );
  while (!outcome) {
    await turn();
    disk.completeOne();
  }
  return outcome;
}

describe('writeThroughSlabs', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'slabs-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** `body` written to a new file through `writeToDescriptor`; the file's bytes. */
  async function written(name: string, body: Readable): Promise<Buffer> {
    const path = join(folder, name);
    const fd = openSync(path, 'wx');
    try {
      await writeThroughSlabs(body, writeToDescriptor(fd));
    } finally {
      closeSync(fd);
    }
    return readFile(path);
  }

  it('writes the exact bytes of a stream of uneven chunks to a file', async () => {
    const chunks = chunksOf(uploaded);
    expect(chunks.length).toBeGreaterThan(20);
    expect(Buffer.compare(await written('whole', Readable.from(chunks)), uploaded)).toBe(0);
  });

  it('copies each chunk as it arrives: the source may reuse a chunk once it is handed over', async () => {
    const chunks = chunksOf(uploaded);
    const source = Readable.from(chunks);
    const path = written('reused', source);
    // Listening after the writer: each chunk is overwritten right after the writer was handed it, as a pool would.
    source.on('data', (chunk: Buffer) => chunk.fill(0));
    expect(Buffer.compare(await path, uploaded)).toBe(0);
    expect(chunks.every((chunk) => chunk.every((byte) => byte === 0))).toBe(true);
  });

  it('writes an empty stream as an empty file', async () => {
    expect((await written('empty', Readable.from([]))).length).toBe(0);
  });

  it("rejects with the disk's error (a descriptor not open for writing)", async () => {
    const path = join(folder, 'read-only');
    await writeFile(path, '');
    const fd = openSync(path, 'r');
    try {
      await expect(writeThroughSlabs(Readable.from(chunksOf(uploaded)), writeToDescriptor(fd))).rejects.toThrow(
        /EBADF/,
      );
    } finally {
      closeSync(fd);
    }
  });

  it('keeps at most two slabs being written, pausing the source meanwhile, and reuses three slabs in all', async () => {
    const disk = new SlowDisk();
    expect(await drive(disk, writeThroughSlabs(Readable.from(chunksOf(uploaded)), disk.writeAt))).toEqual({});
    expect(Buffer.compare(disk.file, uploaded)).toBe(0);
    expect(disk.mostPending).toBe(2);
    // Four full slabs and the rest written from three buffers: the one being filled and two being written.
    expect(disk.slabsUsed.size).toBe(3);
  });

  it('never lets two uploads at once write from one slab, nor fill one the other is writing', async () => {
    const writing = new Set<Buffer>();
    const [first, second] = [new SlowDisk(writing), new SlowDisk(writing)];
    const other = Buffer.from(uploaded).reverse();
    const outcomes = await Promise.all([
      drive(first, writeThroughSlabs(Readable.from(chunksOf(uploaded)), first.writeAt)),
      drive(second, writeThroughSlabs(Readable.from(chunksOf(other)), second.writeAt)),
    ]);
    expect(outcomes).toEqual([{}, {}]);
    // A slab shared while one upload filled it would show here as the other's bytes.
    expect(Buffer.compare(first.file, uploaded)).toBe(0);
    expect(Buffer.compare(second.file, other)).toBe(0);
  });

  it("rejects with the source's error only once the writes under way have completed", async () => {
    const disk = new SlowDisk();
    const source = new Readable({ read: () => undefined });
    let settled = false;
    const writing = writeThroughSlabs(source, disk.writeAt).finally(() => (settled = true));
    writing.catch(() => undefined);
    for (const chunk of chunksOf(uploaded.subarray(0, 2 * SLAB + 1000))) source.push(chunk);
    await turn();
    expect(disk.pending).toHaveLength(2);
    source.destroy(new Error('the client went away'));
    await turn();
    await turn();
    expect(settled).toBe(false);
    disk.completeOne();
    await turn();
    expect(settled).toBe(false);
    disk.completeOne();
    await expect(writing).rejects.toThrow('the client went away');
  });

  it('rejects when the source ends without its end, or was destroyed before it was handed over', async () => {
    const cut = new Readable({ read: () => undefined });
    const disk = new SlowDisk();
    const writing = writeThroughSlabs(cut, disk.writeAt);
    cut.push(uploaded.subarray(0, SLAB + 10));
    await turn();
    cut.destroy();
    expect((await drive(disk, writing)).error?.message).toMatch(/closed before its end/);

    const gone = new Readable({ read: () => undefined });
    gone.on('error', () => undefined);
    gone.destroy(new Error('refused while the file was being opened'));
    await turn();
    await expect(writeThroughSlabs(gone, disk.writeAt)).rejects.toThrow('refused while the file was being opened');
  });
});
