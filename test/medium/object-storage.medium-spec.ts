import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@app/common';
import type { ObjectStorage } from '../../apps/api/src/work-orders/attachments/storage/object-storage.js';
import { storageDriverOf } from '../../apps/api/src/work-orders/attachments/storage/storage-driver.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';

// The ObjectStorage contract (apps/api/src/work-orders/attachments/storage/object-storage.ts) on each driver, built
// from configuration as the app builds it: `local` in a temporary folder, `s3` against s3rver, a real
// S3-compatible server from npm running in this process.

interface Driver {
  storage: ObjectStorage;
  /** Every key the store holds, read around the driver (the folder with any partial file, or the bucket). */
  keys(): Promise<string[]>;
  /** What a write in progress holds besides keys: the bucket's unfinished multipart uploads (none for a folder). */
  pending(): Promise<string[]>;
  close(): Promise<void>;
}

async function localDriver(): Promise<Driver> {
  const folder = await mkdtemp(join(tmpdir(), 'object-storage-'));
  const storage = storageDriverOf(loadConfig({}, { STORAGE_DRIVER: 'local', STORAGE_DIR: folder }));
  return {
    storage,
    keys: async () => {
      const files = await readdir(folder, { recursive: true, withFileTypes: true });
      return files
        .filter((file) => file.isFile())
        .map((file) => join(file.parentPath, file.name).slice(folder.length + 1));
    },
    pending: () => Promise.resolve([]),
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

async function s3Driver(): Promise<Driver> {
  const server: TestS3Server = await startS3Server();
  const storage = storageDriverOf(loadConfig({}, server.config));
  return {
    storage,
    keys: () => server.keys(),
    pending: () => server.pendingUploads(),
    close: async () => {
      (storage as Partial<{ onApplicationShutdown(): void }>).onApplicationShutdown?.();
      await server.close();
    },
  };
}

/** A stream of `bytes`, in 64 KiB chunks, that fails after `failAfter` bytes when given. */
function chunked(bytes: Buffer, failAfter?: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) {
        if (failAfter !== undefined && at >= failAfter) throw new Error('the client went away');
        yield bytes.subarray(at, at + 64 * 1024);
      }
    })(),
  );
}

describe.each([
  ['local', localDriver],
  ['s3', s3Driver],
])('ObjectStorage (%s driver)', (_name, start) => {
  let driver: Driver;
  const newKey = () => `${randomUUID()}/${randomUUID()}`;

  beforeAll(async () => {
    driver = await start();
  });
  afterAll(() => driver.close());

  it('puts, gets the same bytes and length, and deletes (twice safely)', async () => {
    const key = newKey();
    const bytes = randomBytes(300 * 1024);
    await driver.storage.put(key, chunked(bytes));
    const object = await driver.storage.get(key);
    expect(object?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(object!.body), bytes)).toBe(0);
    expect(await driver.keys()).toContain(key);

    await driver.storage.delete(key);
    await driver.storage.delete(key);
    expect(await driver.storage.get(key)).toBeUndefined();
    expect(await driver.keys()).not.toContain(key);
  });

  it('streams a file larger than one part (11 MiB: three S3 parts) back byte for byte', async () => {
    const key = newKey();
    const bytes = randomBytes(11 * 1024 * 1024);
    await driver.storage.put(key, chunked(bytes));
    const object = await driver.storage.get(key);
    expect(object?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(object!.body), bytes)).toBe(0);
    expect(await driver.pending()).toEqual([]);
    await driver.storage.delete(key);
  });

  it('answers undefined for a key that was never stored, and deletes it without complaint', async () => {
    const key = newKey();
    expect(await driver.storage.get(key)).toBeUndefined();
    await expect(driver.storage.delete(key)).resolves.toBeUndefined();
  });

  it.each([
    ['before its first part is complete', 1024 * 1024],
    ['after a first part went up', 6 * 1024 * 1024],
  ])('stores nothing when the stream fails %s', async (_when, failAfter) => {
    const key = newKey();
    const before = await driver.keys();
    await expect(driver.storage.put(key, chunked(randomBytes(8 * 1024 * 1024), failAfter))).rejects.toThrow(
      'the client went away',
    );
    expect(await driver.storage.get(key)).toBeUndefined();
    expect(await driver.keys()).toEqual(before);
    expect(await driver.pending()).toEqual([]);
  });
});
