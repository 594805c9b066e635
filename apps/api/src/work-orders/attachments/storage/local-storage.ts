import { close as closeFile, open as openFile } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { writeFileTo, writeThroughSlabs, writeToDescriptor } from './file-chunks.js';
import { ObjectStorage, type StoredObject } from './object-storage.js';

const openDescriptor = promisify(openFile);
const closeDescriptor = promisify(closeFile);

/**
 * A file opened when it was found, so removing it meanwhile (a delete, the cleanup) does not cut a download short.
 * Its handle closes once it has been read, either way.
 */
class LocalObject implements StoredObject {
  private stream?: Readable;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  get body(): Readable {
    this.stream ??= this.handle.createReadStream({ start: 0 });
    return this.stream;
  }

  async writeTo(destination: Writable, signal?: AbortSignal): Promise<void> {
    try {
      await writeFileTo(this.handle, this.size, destination, signal);
    } finally {
      await this.handle.close();
    }
  }
}

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
    const partial = `${path}.partial`;
    const fd = await this.create(partial);
    try {
      // A plain descriptor, not a FileHandle: the writes then take callbacks, not a promise each.
      try {
        await writeThroughSlabs(body, writeToDescriptor(fd));
      } finally {
        await closeDescriptor(fd);
      }
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /** A new file, open for writing; its folder is made only when missing (a team's first file), not per write. */
  private async create(path: string): Promise<number> {
    try {
      return await openDescriptor(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dirname(path), { recursive: true });
      return openDescriptor(path, 'wx');
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return new LocalObject(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(`${path}.partial`, { force: true });
    await rm(path, { force: true });
  }
}
