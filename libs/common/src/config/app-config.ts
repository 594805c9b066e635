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

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 10_000;

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

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}

/** Reads and checks the environment; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(AppConfig, present, { excludeExtraneousValues: false });
  Object.assign(config, overrides);
  const errors = validateSync(config, { whitelist: false });
  if (errors.length > 0) {
    const text = errors.flatMap((error) => Object.values(error.constraints ?? {})).join('; ');
    throw new Error(`Invalid configuration: ${text}`);
  }
  return config;
}
