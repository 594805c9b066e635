import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';

const POOLER = 'postgres://app@pgbouncer.internal:6432/portfolio';
const DIRECT = 'postgres://app@db.internal:5432/portfolio';

describe('loadConfig: DB_POOLER and DATABASE_DIRECT_URL', () => {
  it('defaults to none: DATABASE_URL is PostgreSQL itself and nothing else is needed', () => {
    const config = loadConfig({ DATABASE_URL: DIRECT });
    expect(config.DB_POOLER).toBe('none');
    expect(config.DATABASE_DIRECT_URL).toBeUndefined();
  });

  it('takes transaction with both URLs', () => {
    const config = loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'transaction' });
    expect(config).toMatchObject({ DB_POOLER: 'transaction', DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT });
  });

  it('refuses transaction without DATABASE_DIRECT_URL, naming it', () => {
    expect(() => loadConfig({ DATABASE_URL: POOLER, DB_POOLER: 'transaction' })).toThrow(
      'Invalid configuration: DB_POOLER=transaction requires DATABASE_DIRECT_URL (PostgreSQL itself, for LISTEN/NOTIFY and migrations)',
    );
  });

  it('refuses transaction without DATABASE_URL (the embedded server has no pooler in front)', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'transaction' })).toThrow(
      'DB_POOLER=transaction requires DATABASE_URL (the pooler)',
    );
  });

  it('refuses any other pooler mode and a DATABASE_DIRECT_URL that is not a postgres:// URL', () => {
    expect(() => loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'session' })).toThrow(
      'DB_POOLER must be none or transaction',
    );
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'mysql://db.internal/portfolio' })).toThrow(
      'DATABASE_DIRECT_URL must be a postgres:// URL',
    );
  });
});

describe('loadConfig: STORAGE_DRIVER and the S3 settings', () => {
  const S3 = {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: 'portfolio-attachments',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example',
  };

  it('defaults to local, which needs no S3 setting', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ STORAGE_DRIVER: 'local', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
    expect(config.S3_BUCKET).toBeUndefined();
  });

  it('takes s3 with a bucket and credentials; the endpoint, region and path style are optional', () => {
    expect(loadConfig(S3)).toMatchObject({ ...S3, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
    const custom = loadConfig({
      ...S3,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-2',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(custom).toMatchObject({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-2',
      S3_FORCE_PATH_STYLE: true,
    });
    expect(loadConfig({ ...S3, S3_FORCE_PATH_STYLE: 'false' }).S3_FORCE_PATH_STYLE).toBe(false);
  });

  it('refuses s3 without its bucket or credentials, naming each missing variable', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(
      'Invalid configuration: STORAGE_DRIVER=s3 requires S3_BUCKET; STORAGE_DRIVER=s3 requires S3_ACCESS_KEY_ID; ' +
        'STORAGE_DRIVER=s3 requires S3_SECRET_ACCESS_KEY',
    );
    // An empty variable is a missing one.
    expect(() => loadConfig({ ...S3, S3_SECRET_ACCESS_KEY: '' })).toThrow(
      /^Invalid configuration: STORAGE_DRIVER=s3 requires S3_SECRET_ACCESS_KEY$/,
    );
  });

  it('refuses another driver, a path style that is not true or false, and an endpoint that is not a URL', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 'gcs' })).toThrow('STORAGE_DRIVER must be local or s3');
    expect(() => loadConfig({ ...S3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      'S3_FORCE_PATH_STYLE must be true or false',
    );
    expect(() => loadConfig({ ...S3, S3_ENDPOINT: 'minio.internal:9000' })).toThrow(
      'S3_ENDPOINT must be an http:// or https:// URL',
    );
  });
});
