import { createHash } from 'node:crypto';
import type pg from 'pg';

const names = new Map<string, string>();

/**
 * Runs `text` as a named statement: PostgreSQL parses it once per connection and, once it finds that one generic
 * plan does (the default `plan_cache_mode`), stops planning it. The service prepares its lookups by primary key
 * and its version probe (NamedStatements); the floor prepares every statement except its lists', whose best plan
 * depends on the values, as the service's does.
 */
export function named<R extends pg.QueryResultRow>(
  db: pg.Pool | pg.PoolClient,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  let name = names.get(text);
  if (name === undefined) {
    name = `floor_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return db.query<R>({ name, text, values });
}
