import type { EntityManager } from 'typeorm';
import { runTeamSql } from './transactions.js';

/**
 * Team-scoped SQL by construction: each builder takes the root table as `table alias` and ADDS
 * `<alias>.team_id = $1` (or, for an insert, puts `$1` in `team_id`) itself, so no statement built here can leave
 * the team out. The team is bound as `$1`; the caller's parameters follow as `$2`…; caller conditions are put in
 * parentheses after the team's, so an `OR` in them cannot widen the scope. Statements these cannot express are
 * listed in docs/architecture.md ("Team isolation"), each with why it is safe.
 */

/** `prepared`: a named statement, planned once per connection; only for SQL whose plan fits every value bound. */
export interface TeamSqlOptions {
  prepared?: boolean;
}

export interface TeamSelect {
  /** The root table and its alias (`events e`): its `team_id` is compared with `$1`. */
  from: string;
  columns: string;
  /** Joins, each matching the root row's own `team_id`. */
  joins?: string;
  where?: string;
  orderBy?: string;
  limit?: string;
  /** e.g. `FOR UPDATE`. */
  lock?: string;
}

export interface TeamUpdate {
  /** The root table and its alias (`api_keys k`). */
  table: string;
  set: string;
  where?: string;
  /** Rows to answer with (written against the alias); the update runs in a CTE so TypeORM answers the rows. */
  returning?: string;
  /** With `returning`: an outer select over the changed rows, named by the alias (its joins match `team_id`). */
  then?: { columns: string; joins?: string };
}

export interface TeamDelete {
  from: string;
  where?: string;
  returning?: string;
}

export interface TeamInsert {
  /** The table and its alias (`idempotency_keys k`). */
  into: string;
  /** The columns after `team_id`, bound in order from `$2`. */
  columns: readonly string[];
  /** e.g. `ON CONFLICT (team_id, key) DO UPDATE SET …` */
  onConflict?: string;
  returning?: string;
}

/** `table alias` → [table, alias] (the alias is the table's name when none is given). */
function parts(root: string): [string, string] {
  const [table, alias = table] = root.trim().split(/\s+/);
  return [table, alias];
}

const scoped = (alias: string, where?: string): string =>
  where ? `${alias}.team_id = $1 AND (${where})` : `${alias}.team_id = $1`;

const clause = (keyword: string, text?: string): string => (text ? ` ${keyword} ${text}` : '');

export function teamSelectSql(q: TeamSelect): string {
  const [table, alias] = parts(q.from);
  return (
    `SELECT ${q.columns} FROM ${table} ${alias}${clause('', q.joins)} WHERE ${scoped(alias, q.where)}` +
    `${clause('ORDER BY', q.orderBy)}${clause('LIMIT', q.limit)}${clause('', q.lock)}`
  );
}

export function teamUpdateSql(q: TeamUpdate): string {
  const [table, alias] = parts(q.table);
  const update = `UPDATE ${table} ${alias} SET ${q.set} WHERE ${scoped(alias, q.where)}`;
  if (!q.returning) return update;
  const outer = q.then ? `SELECT ${q.then.columns} FROM ${alias}${clause('', q.then.joins)}` : `SELECT * FROM ${alias}`;
  return `WITH ${alias} AS (${update} RETURNING ${q.returning}) ${outer}`;
}

export function teamDeleteSql(q: TeamDelete): string {
  const [table, alias] = parts(q.from);
  const remove = `DELETE FROM ${table} ${alias} WHERE ${scoped(alias, q.where)}`;
  return q.returning ? `WITH gone AS (${remove} RETURNING ${q.returning}) SELECT * FROM gone` : remove;
}

export function teamInsertSql(q: TeamInsert): string {
  const [table, alias] = parts(q.into);
  const values = q.columns.map((_, index) => `$${index + 2}`);
  return (
    `INSERT INTO ${table} AS ${alias} (team_id, ${q.columns.join(', ')}) VALUES ($1, ${values.join(', ')})` +
    `${clause('', q.onConflict)}${clause('RETURNING', q.returning)}`
  );
}

export function teamSelect<R>(
  manager: EntityManager,
  teamId: string,
  q: TeamSelect,
  params: unknown[] = [],
  options: TeamSqlOptions = {},
): Promise<R[]> {
  return runTeamSql<R>(manager, teamId, teamSelectSql(q), params, options);
}

export function teamUpdate<R>(
  manager: EntityManager,
  teamId: string,
  q: TeamUpdate,
  params: unknown[] = [],
  options: TeamSqlOptions = {},
): Promise<R[]> {
  return runTeamSql<R>(manager, teamId, teamUpdateSql(q), params, options);
}

export function teamDelete<R>(
  manager: EntityManager,
  teamId: string,
  q: TeamDelete,
  params: unknown[] = [],
  options: TeamSqlOptions = {},
): Promise<R[]> {
  return runTeamSql<R>(manager, teamId, teamDeleteSql(q), params, options);
}

export function teamInsert<R>(
  manager: EntityManager,
  teamId: string,
  q: TeamInsert,
  values: unknown[],
  options: TeamSqlOptions = {},
): Promise<R[]> {
  return runTeamSql<R>(manager, teamId, teamInsertSql(q), values, options);
}
