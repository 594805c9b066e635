import type { AppConfig } from '@app/common';
import { LocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';

/**
 * The driver `STORAGE_DRIVER` names (loadConfig has checked that `s3` comes with its bucket and credentials). The S3
 * driver, and the AWS SDK with it, is loaded only when named: the SDK holds some 5 MB of the heap, which every full
 * collection would otherwise mark for nothing.
 */
export async function storageDriverOf(config: AppConfig): Promise<ObjectStorage> {
  if (config.STORAGE_DRIVER === 'local') return new LocalStorage(config.STORAGE_DIR);
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket || !accessKeyId || !secretAccessKey) {
    throw new Error('STORAGE_DRIVER=s3 requires S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  const { S3Storage } = await import('./s3-storage.js');
  return new S3Storage({
    bucket,
    accessKeyId,
    secretAccessKey,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}
