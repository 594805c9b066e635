import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
const toBoolean = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? (BOOLEAN_TEXT[value.trim().toLowerCase()] ?? value) : value;

/** Every environment variable the service reads, checked once at boot (see `.env.example`). */
export class AppConfig {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** postgres://… ; unset: the embedded PostgreSQL under `.data/`. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /**
   * postgres://… of PostgreSQL itself when DATABASE_URL goes through a pooler: what is bound to a session (LISTEN for
   * key revocations and webhook wake-ups, migrations and their advisory lock) connects here. Unset: DATABASE_URL.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_DIRECT_URL must be a postgres:// URL' })
  DATABASE_DIRECT_URL?: string;

  /**
   * What DATABASE_URL reaches: `none`, PostgreSQL itself (or a session pooler); `transaction`, a transaction pooler
   * such as PgBouncer with `pool_mode = transaction` (no named prepared statements, no session state on its
   * connections; DATABASE_URL and DATABASE_DIRECT_URL are then required).
   */
  @IsIn(['none', 'transaction'], { message: 'DB_POOLER must be none or transaction' })
  DB_POOLER: 'none' | 'transaction' = 'none';

  /** The embedded PostgreSQL (only when DATABASE_URL is unset): port, data folder, database name. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  @IsString()
  @IsNotEmpty()
  EMBEDDED_PG_DIR = '.data/postgres';

  @IsString()
  @IsNotEmpty()
  EMBEDDED_PG_DATABASE = 'portfolio';

  /** redis://… ; set: rate-limit windows live in Redis, shared by every instance. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 200;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_WRITES_PER_MINUTE = 30;

  /** Failed authentications (unknown, revoked, expired keys) per client address and minute, per instance. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_MINUTE = 60;

  /**
   * Proxies (load balancers) in front of the service whose `X-Forwarded-For` entries are trusted: the client address
   * the failed-authentication limit counts is the entry this many hops from the right (Express's `trust proxy`). 0:
   * the TCP peer, and the header is ignored. More than the real number lets a client choose its address.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  TRUST_PROXY_HOPS = 0;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 10_000;

  /** Records a CSV export reads per statement (docs/exports.md): memory per export against round trips. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  EXPORT_BATCH_SIZE = 500;

  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error', 'silent'])
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';

  /** `GET /metrics` (Prometheus text format) and the request counters behind it; false: 404 like any unknown path. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED = true;

  @IsOptional()
  @IsString()
  PUBLIC_URL?: string;

  /** How often each instance writes the key usage it gathered (daily counts, last requests, last used). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  USAGE_FLUSH_INTERVAL_MS = 5_000;

  /** Webhook URLs may be http:// (tests and local development); otherwise https only. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'WEBHOOKS_ALLOW_HTTP must be true or false' })
  WEBHOOKS_ALLOW_HTTP = false;

  /** Webhook hosts may resolve to loopback, private, link-local or metadata addresses (tests, local development). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'WEBHOOKS_ALLOW_PRIVATE must be true or false' })
  WEBHOOKS_ALLOW_PRIVATE = false;

  /** The waits before each retry of a failed delivery (±10 % jitter); after the last, the delivery has failed. */
  @Matches(/^\s*\d+(ms|s|m|h|d)\s*(,\s*\d+(ms|s|m|h|d)\s*)*$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be a comma list of durations such as 5s,5m,30m,2h',
  })
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

  /** How long a delivery attempt may take (a 2xx within it succeeds); tests shorten it. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** How often each instance looks for due deliveries besides the NOTIFY wake-ups (retries fall due by time). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  WEBHOOK_POLL_INTERVAL_MS = 2_000;

  /**
   * The key that signs the dashboard's sign-in and sign-up form tokens (HMAC-SHA256) and, through a key derived
   * from it, seals the new keys and secrets its pages show once (AES-256-GCM); at least 32 characters. Required in
   * production; unset in development, one is generated once into `.data/secrets` (`serverSecret`).
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'DASHBOARD_SECRET must be at least 32 characters' })
  DASHBOARD_SECRET?: string;

  /**
   * Where an import's body is received before its rows are read (a file per import, removed once answered); unset:
   * the system's temporary folder (`TMPDIR`).
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  IMPORT_SPOOL_DIR?: string;

  /** Where uploaded files' bytes are kept: `local` (files under STORAGE_DIR) or `s3` (a bucket, the S3_* variables). */
  @IsIn(['local', 's3'], { message: 'STORAGE_DRIVER must be local or s3' })
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @IsString()
  @IsNotEmpty()
  STORAGE_DIR = '.data/attachments';

  /** The `s3` driver: an S3-compatible server's URL (MinIO, Ceph, …); unset: AWS S3 in S3_REGION. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+/, { message: 'S3_ENDPOINT must be an http:// or https:// URL' })
  S3_ENDPOINT?: string;

  /** The `s3` driver's bucket (it must exist) and credentials: required with STORAGE_DRIVER=s3. */
  @IsOptional()
  @IsString()
  S3_BUCKET?: string;

  @IsString()
  @IsNotEmpty()
  S3_REGION = 'us-east-1';

  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`: what most self-hosted servers want. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'S3_FORCE_PATH_STYLE must be true or false' })
  S3_FORCE_PATH_STYLE = false;

  /**
   * The key that signs download URLs (HMAC-SHA256), at least 32 characters, the same on every instance. Required in
   * production; unset in development, one is generated once into `.data/secrets` (`serverSecret`), so URLs still work
   * after a restart.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ATTACHMENT_URL_SECRET must be at least 32 characters' })
  ATTACHMENT_URL_SECRET?: string;

  /** Sign-up on the dashboard; unset: on, except when NODE_ENV is production. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'DASHBOARD_SIGNUP must be true or false' })
  DASHBOARD_SIGNUP?: boolean;

  /**
   * Dashboard hardening (sign-in, sign-up, sessions). Password hashes (scrypt, on libuv's 4-thread pool) that may
   * run at once per instance, wait for a turn, and be held (running or waiting) by one client address; beyond
   * them a sign-in or sign-up is answered 429 at once. Keep PER_CLIENT below CONCURRENCY, so that one address never
   * holds every running hash.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  PASSWORD_HASH_CONCURRENCY = 2;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  PASSWORD_HASH_QUEUE = 16;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  PASSWORD_HASH_PER_CLIENT = 1;

  /** Sign-ups per client address in a sliding hour (every instance together: counted in PostgreSQL). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  DASHBOARD_SIGNUPS_PER_HOUR = 10;

  /** A dashboard session ends this many days after sign-in however often it is used (besides the 12 h idle limit). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_650)
  DASHBOARD_SESSION_MAX_DAYS = 30;

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}

/** Reads and checks the environment; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(AppConfig, present, { excludeExtraneousValues: false });
  Object.assign(config, overrides);
  const errors = validateSync(config, { whitelist: false }).flatMap((error) => Object.values(error.constraints ?? {}));
  errors.push(...poolerErrors(config), ...storageErrors(config));
  if (errors.length > 0) throw new Error(`Invalid configuration: ${errors.join('; ')}`);
  return config;
}

/** Behind a transaction pooler, what is bound to a session needs PostgreSQL itself, and the pooler needs an address. */
function poolerErrors(config: AppConfig): string[] {
  if (config.DB_POOLER !== 'transaction') return [];
  const errors: string[] = [];
  if (!config.DATABASE_URL) errors.push('DB_POOLER=transaction requires DATABASE_URL (the pooler)');
  if (!config.DATABASE_DIRECT_URL) {
    errors.push(
      'DB_POOLER=transaction requires DATABASE_DIRECT_URL (PostgreSQL itself, for LISTEN/NOTIFY and migrations)',
    );
  }
  return errors;
}

/** The `s3` driver has no default bucket or credentials: each missing one is named at boot, not at the first upload. */
function storageErrors(config: AppConfig): string[] {
  if (config.STORAGE_DRIVER !== 's3') return [];
  const required = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  return required.filter((name) => !config[name]?.trim()).map((name) => `STORAGE_DRIVER=s3 requires ${name}`);
}
