import { Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** TypeORM's PostgreSQL driver keeps its `pg` pool as `master` (absent before connecting and after closing). */
function poolOf(dataSource: DataSource): PoolCounts | undefined {
  const pool: unknown = (dataSource.driver as { master?: unknown }).master;
  return typeof pool === 'object' && pool !== null && 'totalCount' in pool ? (pool as PoolCounts) : undefined;
}

/** The pool's state, read when Prometheus scrapes (nothing is tracked between scrapes). */
export function registerDatabasePoolMetrics(registry: Registry, dataSource: DataSource, poolSize: number): void {
  const gauge = (name: string, help: string, read: (pool: PoolCounts) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect(this: Gauge) {
        const pool = poolOf(dataSource);
        this.set(pool ? read(pool) : 0);
      },
    });
  };
  gauge('db_pool_connections', 'Open connections in the database pool (busy and idle)', (pool) => pool.totalCount);
  gauge(
    'db_pool_idle_connections',
    'Open connections in the database pool not running a query',
    (pool) => pool.idleCount,
  );
  gauge(
    'db_pool_waiting_requests',
    'Queries waiting for a connection because every pooled connection is busy',
    (pool) => pool.waitingCount,
  );
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Largest number of connections the pool opens (DB_POOL_SIZE)',
    registers: [registry],
  }).set(poolSize);
}
