import type { Readable } from 'node:stream';

/** An object's bytes as a stream, and its length. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Where attachments' bytes live (`STORAGE_DRIVER`): one interface, a driver per kind of storage. Keys are the
 * service's own (`<team id>/<attachment id>`), never a client's text.
 */
export abstract class ObjectStorage {
  /** Writes the stream's bytes under `key`; resolves once they are all stored, rejects (storing nothing) on error. */
  abstract put(key: string, body: Readable): Promise<void>;
  /** The object's bytes; undefined when there is none. */
  abstract get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; an object that is not there is already removed (safe to repeat). */
  abstract delete(key: string): Promise<void>;
}
