import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';

/** An arbitrary constant shared by every instance: the advisory lock that serialises migration runs. */
const MIGRATION_LOCK_KEY = 7_460_331_019;

/**
 * Applies pending migrations, holding a session advisory lock so instances starting together do not race to
 * apply the same migration: the first applies them, the others wait and then find nothing pending. The lock and
 * the migrations are bound to one session: `url` is PostgreSQL itself, never a transaction pooler's
 * (`DATABASE_DIRECT_URL`), where the unlock could run on another server connection than the lock.
 */
export async function runPendingMigrations(url: string): Promise<string[]> {
  const dataSource = await new DataSource({ ...dataSourceOptions(url), extra: { max: 2 } }).initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
