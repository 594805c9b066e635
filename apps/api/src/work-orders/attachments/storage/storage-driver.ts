import type { AppConfig } from '@app/common';
import { LocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

/** The driver `STORAGE_DRIVER` names (loadConfig has checked that `s3` comes with its bucket and credentials). */
export function storageDriverOf(config: AppConfig): ObjectStorage {
  if (config.STORAGE_DRIVER === 'local') return new LocalStorage(config.STORAGE_DIR);
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket || !accessKeyId || !secretAccessKey) {
    throw new Error('STORAGE_DRIVER=s3 requires S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  return new S3Storage({
    bucket,
    accessKeyId,
    secretAccessKey,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}
