import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OnApplicationShutdown } from '@nestjs/common';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ObjectStorage, type StoredObject } from './object-storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Another S3-compatible server (MinIO, Ceph, …); unset: AWS's endpoint for the region. */
  endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (most self-hosted servers want it). */
  forcePathStyle: boolean;
}

/**
 * A multipart part's size: an upload holds at most one part in memory (queue size 1), whatever the file's size.
 * 5 MiB is S3's smallest part; a file no larger is sent as one PutObject from that one buffer.
 */
const PART_BYTES = 5 * 1024 * 1024;

/** Objects in one bucket of S3 or an S3-compatible server (`STORAGE_DRIVER=s3`). */
export class S3Storage extends ObjectStorage implements OnApplicationShutdown {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    super();
    this.bucket = options.bucket;
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // The SDK's default CRC32 checksums on every upload are refused by older S3-compatible servers; S3 itself
      // does not need them (the upload is signed, and we keep our own SHA-256 of the bytes).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client(config);
  }

  /**
   * A stream of unknown length goes up in parts (`Upload`): nothing is stored until its end, when the last part
   * completes the object. A failure of the stream or of any request aborts the multipart upload
   * (`leavePartsOnError: false`), so the bucket keeps neither an object nor parts (a bucket lifecycle rule takes
   * the parts of an upload whose process died: docs/attachments.md).
   */
  async put(key: string, body: Readable): Promise<void> {
    let streamError: Error | undefined;
    const onError = (error: Error): void => {
      streamError ??= error;
    };
    body.on('error', onError);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The stream's own error (a refused or interrupted upload) says why, rather than a failed abort after it.
      throw streamError ?? error;
    } finally {
      body.off('error', onError);
      // A failed upload stops reading: the rest of the stream is dropped, not left paused with its buffers.
      if (!body.readableEnded) body.destroy();
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(object.Body instanceof Readable) || object.ContentLength === undefined) {
        (object.Body as Readable | undefined)?.destroy?.();
        throw new Error(`the S3 answer for ${key} has no readable body or no length`);
      }
      const body = object.Body;
      return {
        body,
        size: object.ContentLength,
        writeTo: (destination, signal) => pipeline(body, destination, { end: false, signal }),
      };
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  /** S3 answers 204 for a key that is not there; a server that says NoSuchKey is taken at its word too. */
  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissingObject(error)) throw error;
    }
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}

/** The object is not there; a missing bucket (also a 404) is a configuration error and is thrown. */
function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  return (
    error instanceof S3ServiceException &&
    error.$metadata.httpStatusCode === 404 &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}
