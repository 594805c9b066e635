import type { Readable, Writable } from 'node:stream';

/** An object's bytes and its length: read either as a stream (`body`) or written to a destination (`writeTo`), once. */
export interface StoredObject {
  readonly body: Readable;
  readonly size: number;
  /**
   * Writes the bytes to `destination` (not ending it), in the way that costs the driver least memory; stops, failing,
   * once `signal` aborts (the destination's client gone in a way the destination itself never reports).
   */
  writeTo(destination: Writable, signal?: AbortSignal): Promise<void>;
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
