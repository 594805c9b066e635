import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectStorage, type StoredObject } from './object-storage.js';

/**
 * Files under one folder (`STORAGE_DIR`, default `.data/attachments`). A write lands under `<key>.partial` first and
 * is renamed when whole, so a reader never sees half a file; `delete` removes both names, so the cleanup also takes
 * what a process killed mid-upload left behind. (Keys are never reused, so two writes never share a partial name.)
 */
export class LocalStorage extends ObjectStorage {
  private readonly root: string;

  constructor(folder: string) {
    super();
    this.root = resolve(folder);
  }

  private pathOf(key: string): string {
    if (!/^[\w-]+(\/[\w-]+)*$/.test(key)) throw new Error(`bad storage key ${key}`);
    return join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    try {
      const { size } = await stat(path);
      return { body: createReadStream(path), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(`${path}.partial`, { force: true });
    await rm(path, { force: true });
  }
}
