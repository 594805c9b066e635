import type { DataSourceOptions } from 'typeorm';
import { migrations } from './migrations/index.js';

export interface DatabaseTuning {
  /** Connections in the pool. */
  poolSize: number;
  /** A query running longer than this is cancelled by PostgreSQL. */
  statementTimeoutMs: number;
}

export const defaultTuning: DatabaseTuning = { poolSize: 10, statementTimeoutMs: 10_000 };

export function dataSourceOptions(url: string, tuning: DatabaseTuning = defaultTuning): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations,
    migrationsTableName: 'migrations',
    // Dates are formatted by the API itself; `pg` returns timestamptz as Date.
    extra: {
      max: tuning.poolSize,
      statement_timeout: tuning.statementTimeoutMs,
      application_name: 'property-portfolio-api',
    },
  };
}
