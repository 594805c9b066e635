import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OnApplicationShutdown } from '@nestjs/common';
import { loadConfig } from '@app/common';
import type { ObjectStorage } from '../../apps/api/src/work-orders/attachments/storage/object-storage.js';
import { storageDriverOf } from '../../apps/api/src/work-orders/attachments/storage/storage-driver.js';
import { STORAGE_DRIVERS, type TestStore } from '../support/storage-drivers.js';

// The ObjectStorage contract (apps/api/src/work-orders/attachments/storage/object-storage.ts) on each driver, built
// from configuration as the app builds it: `local` in a temporary folder, `s3` against s3rver, a real
// S3-compatible server from npm running in this process.

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

describe.each(STORAGE_DRIVERS)('ObjectStorage (%s driver)', (_name, start) => {
  let store: TestStore;
  let storage: ObjectStorage;
  const newKey = () => `${randomUUID()}/${randomUUID()}`;

  beforeAll(async () => {
    store = await start();
    storage = await storageDriverOf(loadConfig({}, store.config));
  });
  afterAll(async () => {
    (storage as Partial<OnApplicationShutdown>).onApplicationShutdown?.();
    await store.close();
  });

  it('puts, gets the same bytes and length, and deletes (twice safely)', async () => {
    const key = newKey();
    const bytes = randomBytes(300 * 1024);
    await storage.put(key, chunked(bytes));
    const object = await storage.get(key);
    expect(object?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(object!.body), bytes)).toBe(0);
    expect(await store.keys()).toContain(key);

    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    expect(await store.keys()).not.toContain(key);
  });

  it('streams a file larger than one part (11 MiB: three S3 parts) back byte for byte', async () => {
    const key = newKey();
    const bytes = randomBytes(11 * 1024 * 1024);
    await storage.put(key, chunked(bytes));
    const object = await storage.get(key);
    expect(object?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(object!.body), bytes)).toBe(0);
    expect(await store.pending()).toEqual([]);
    await storage.delete(key);
  });

  it('answers undefined for a key that was never stored, and deletes it without complaint', async () => {
    const key = newKey();
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it.each([
    ['before its first part is complete', 1024 * 1024],
    ['after a first part went up', 6 * 1024 * 1024],
  ])('stores nothing when the stream fails %s', async (_when, failAfter) => {
    const key = newKey();
    const before = await store.keys();
    await expect(storage.put(key, chunked(randomBytes(8 * 1024 * 1024), failAfter))).rejects.toThrow(
      'the client went away',
    );
    expect(await storage.get(key)).toBeUndefined();
    expect(await store.keys()).toEqual(before);
    expect(await store.pending()).toEqual([]);
  });
});
