import type { DataSourceOptions } from 'typeorm';
import { connectionRolesExtra, type DbPooler } from '@app/common';
import { migrations } from './migrations/index.js';

export interface DatabaseTuning {
  /** Connections in the pool. */
  poolSize: number;
  /** A query running longer than this is cancelled by PostgreSQL (not behind a transaction pooler: see below). */
  statementTimeoutMs: number;
  /** What the URL reaches (`DB_POOLER`); default `none`, PostgreSQL itself. */
  pooler?: DbPooler;
  /** PostgreSQL itself, for what is bound to a session (`DATABASE_DIRECT_URL`); default: the URL. */
  sessionUrl?: string;
}

export const defaultTuning: DatabaseTuning = { poolSize: 10, statementTimeoutMs: 10_000 };

export function dataSourceOptions(url: string, tuning: DatabaseTuning = defaultTuning): DataSourceOptions {
  const pooler = tuning.pooler ?? 'none';
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
      // `pg`'s pipeline mode: a query is written without waiting for the answer to the one before it. A request's
      // transaction sends its BEGIN with its first statement and its COMMIT with its last, in one round trip each
      // (`beginPipelined`, `commitBehind`; docs/performance.md, "Round trips per write").
      pipeline: true,
      // A startup parameter, set once per connection: PgBouncer refuses it ("unsupported startup parameter") and
      // a transaction pooler could not keep it anyway, so behind one the timeout is the server's, set for the
      // role or database (docs/operations.md, "Behind a transaction pooler"; start-up warns when it differs).
      ...(pooler === 'transaction' ? {} : { statement_timeout: tuning.statementTimeoutMs }),
      application_name: 'property-portfolio-api',
      ...connectionRolesExtra({ pooler, sessionUrl: tuning.sessionUrl }),
    },
  };
}
