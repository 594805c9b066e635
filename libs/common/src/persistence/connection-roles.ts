import type { DataSource } from 'typeorm';

/** What `DATABASE_URL` reaches (`DB_POOLER`): PostgreSQL itself, or a transaction pooler such as PgBouncer. */
export type DbPooler = 'none' | 'transaction';

/**
 * How a data source's connections may be used, kept in its options' `extra` beside `pg`'s pool settings (`pg`
 * ignores keys it does not know), so whatever holds the data source can tell without the configuration.
 */
export interface ConnectionRoles {
  /** `transaction`: each transaction (or statement outside one) may run on another server connection. */
  pooler: DbPooler;
  /** PostgreSQL itself, for what is bound to a session (LISTEN); undefined: the data source's own URL. */
  sessionUrl?: string;
}

const ROLES_KEY = 'connectionRoles';

/** The entry of a data source's `extra` that records `roles`. */
export function connectionRolesExtra(roles: ConnectionRoles): Record<string, ConnectionRoles> {
  return { [ROLES_KEY]: roles };
}

function rolesOf(db: DataSource): ConnectionRoles | undefined {
  const extra = db.options.extra as Record<string, unknown> | undefined;
  return extra?.[ROLES_KEY] as ConnectionRoles | undefined;
}

/**
 * Whether `db`'s pooled connections go through a transaction pooler: no named prepared statements, `SET` or session
 * advisory locks on them, since the next transaction may run on another server connection.
 */
export function behindTransactionPooler(db: DataSource): boolean {
  return rolesOf(db)?.pooler === 'transaction';
}

/**
 * The URL of a connection bound to a session (a LISTEN): `DATABASE_DIRECT_URL` when set, else the data source's own.
 * Through a transaction pooler a LISTEN would be heard by whichever server connection ran it, then by nobody.
 */
export function sessionUrlOf(db: DataSource): string | undefined {
  return rolesOf(db)?.sessionUrl ?? (db.options as { url?: string }).url;
}
