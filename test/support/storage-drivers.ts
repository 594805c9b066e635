import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { AppConfig } from '@app/common';
import { startS3Server } from './s3-server.js';

/** A place for attachments' bytes that a test made, and its own look at it, around the driver. */
export interface TestStore {
  /** The settings that point the app (or `storageDriverOf`) at it. */
  config: Partial<AppConfig>;
  /** Every key stored under `prefix` (a `local` folder's partial files too: a write in progress is a key here). */
  keys(prefix?: string): Promise<string[]>;
  /** Writes begun and neither finished nor undone: the bucket's unfinished multipart uploads (a folder has none). */
  pending(): Promise<string[]>;
  close(): Promise<void>;
}

async function localStore(): Promise<TestStore> {
  const folder = await mkdtemp(join(tmpdir(), 'attachments-'));
  return {
    config: { STORAGE_DRIVER: 'local', STORAGE_DIR: folder },
    keys: async (prefix = '') => {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
        .filter((key) => key.startsWith(prefix));
    },
    pending: () => Promise.resolve([]),
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

async function s3Store(): Promise<TestStore> {
  const server = await startS3Server();
  return {
    config: server.config,
    keys: (prefix) => server.keys(prefix),
    pending: () => server.pendingUploads(),
    close: () => server.close(),
  };
}

/**
 * Each storage driver with a store of its own, for `describe.each`: `local` in a temporary folder, `s3` against
 * s3rver (a real S3-compatible server from npm) in the test process.
 */
export const STORAGE_DRIVERS: ReadonlyArray<[name: AppConfig['STORAGE_DRIVER'], start: () => Promise<TestStore>]> = [
  ['local', localStore],
  ['s3', s3Store],
];
