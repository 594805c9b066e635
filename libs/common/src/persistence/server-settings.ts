import type { DataSource } from 'typeorm';
import { behindTransactionPooler } from './connection-roles.js';

/**
 * What the service needs of PostgreSQL's own settings and cannot set itself, checked once at start-up; each miss is
 * one warning line saying what to change (docs/operations.md, "Behind a transaction pooler"):
 *
 * - Behind a transaction pooler, `statement_timeout` = `DB_STATEMENT_TIMEOUT_MS`. The service cannot set it on its
 *   connections there (PgBouncer refuses it as a startup parameter, and a `SET` would reach one server connection
 *   only), so it must come from the database or the role.
 *
 * (Autovacuum is not checked: the service works without it, only slower after bulk loads, and some development
 * machines run without it; docs/operations.md says what it needs.)
 */
export async function serverSettingsWarnings(db: DataSource, statementTimeoutMs: number): Promise<string[]> {
  if (!behindTransactionPooler(db)) return [];
  const [settings] = await db.query<{ timeout: string; role: string; database: string }[]>(
    `SELECT (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS timeout,
            current_user AS role, current_database() AS database`,
  );
  if (Number(settings.timeout) === statementTimeoutMs) return [];
  const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;
  return [
    `Behind a transaction pooler (DB_POOLER=transaction) the service cannot set statement_timeout on its ` +
      `connections: PostgreSQL's is ${settings.timeout} ms there, DB_STATEMENT_TIMEOUT_MS is ${statementTimeoutMs}; ` +
      `set it for the database or the role: ALTER DATABASE ${quote(settings.database)} SET statement_timeout = ` +
      `${statementTimeoutMs} (or ALTER ROLE ${quote(settings.role)} …; docs/operations.md)`,
  ];
}
