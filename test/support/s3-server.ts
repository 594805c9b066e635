import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { AppConfig } from '@app/common';

/** s3rver's fixed credentials (it checks every request's signature against them). */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  /** The `STORAGE_DRIVER=s3` settings that reach this server's bucket. */
  config: Pick<
    AppConfig,
    | 'STORAGE_DRIVER'
    | 'S3_ENDPOINT'
    | 'S3_BUCKET'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
  >;
  /** Every key in the bucket under `prefix` (the test's own look at the store, bypassing the driver). */
  keys(prefix?: string): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted (their parts still kept). */
  pendingUploads(): Promise<string[]>;
  close(): Promise<void>;
}

/** The part of s3rver's file store this module reaches into. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * s3rver's DeleteObject removes the object's folder once it is empty, racing a PutObject into that folder which has
 * just made it: the PUT's file then fails to open (ENOENT) on a write stream with no error listener, an uncaught
 * exception that ends the test run (seen with a team's last object deleted while another upload of the team began).
 * Its objects' files are removed as before; the empty folders, which hold no object, are left.
 */
function leaveEmptyFolders(s3rver: S3rver): void {
  const store = (s3rver as unknown as { store: S3rverStore }).store;
  store.deleteObject = async (bucket, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((resource) =>
      store.getResourcePath(bucket, key, resource),
    );
    await Promise.all(files.map((file) => rm(file, { force: true })));
  };
}

/**
 * A real S3-compatible server (s3rver, from npm) in this process: a free port on 127.0.0.1, its objects in a new
 * temporary folder, one empty bucket made through the SDK as an operator would.
 *
 * s3rver 3.7 implements multipart uploads but not AbortMultipartUpload (it answers 405 and keeps the parts), so
 * that one request is answered here: the upload's parts are removed from s3rver's own folder, as S3 does.
 */
export async function startS3Server(bucket = 'attachments'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const uploads = join(directory, bucket, '._S3rver_uploads');
  const s3rver = new S3rver({ directory, silent: true });
  leaveEmptyFolders(s3rver);
  const handle = s3rver.callback();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const uploadId = new URL(request.url ?? '/', 'http://s3').searchParams.get('uploadId');
    if (request.method !== 'DELETE' || uploadId === null) {
      handle(request, response);
      return;
    }
    const known = /^[0-9a-f]+$/.test(uploadId);
    void (known ? rm(join(uploads, uploadId), { recursive: true, force: true }) : Promise.resolve()).then(
      () => response.writeHead(known ? 204 : 404).end(),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const config: TestS3Server['config'] = {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE: true,
  };
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    config,
    keys: async (prefix) => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    },
    pendingUploads: () => readdir(uploads).catch(() => []),
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
