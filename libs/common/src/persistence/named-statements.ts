import { createHash } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';
import { behindTransactionPooler } from './connection-roles.js';
import { commitBehind, type PipelineClient } from './pipelined-transactions.js';

/** What this module needs of a `pg` Pool or Client: a query with a statement name (and a client's pipeline mode). */
interface NamedQueryable extends PipelineClient {
  query(text: string): Promise<unknown>;
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export interface NamedQueryOptions {
  /**
   * The statement is its transaction's last: COMMIT may go out right behind it (`commitBehind`), and when it does the
   * query answers once both are done, failing if either did.
   */
  commits?: boolean;
}

/**
 * How many distinct SQL texts get a name. Each name costs every pooled connection a prepared statement (with its
 * plan) in PostgreSQL, so the count is bounded whatever callers do; texts beyond it run unnamed. The API's prepared
 * texts are a few per resource.
 */
export const NAMED_STATEMENT_LIMIT = 256;

/**
 * SQL run as named (prepared) statements: PostgreSQL parses each text once per connection, and after five runs
 * keeps one generic plan for it when that plan costs no more than the ones made for each run's values (the
 * default `plan_cache_mode`), so it stops planning it. That holds for lookups by primary key and for the team's
 * change version, which callers mark `prepared` (`team-sql.ts`); a list's statement is planned for its
 * values on every run, since a search's or a filter's best plan depends on them (docs/performance.md, "Prepared
 * statements").
 *
 * A name is derived from the text itself, so the same text always has the same name on every connection and the
 * name can never stand for another text. PostgreSQL re-plans a prepared statement by itself when a table it reads
 * changes; if a migration changes a statement's result columns under a running instance, PostgreSQL refuses the old
 * statement ("cached plan must not change result type"): the names then start over with a new prefix and the query
 * is retried once (outside a transaction; inside one the transaction has already failed).
 *
 * Behind a transaction pooler (`DB_POOLER=transaction`) every text runs unnamed: a statement prepared on one server
 * connection would be looked for on another ("prepared statement … does not exist", or "already exists" when the
 * name is prepared again there). The unnamed statement is parsed and planned on every run, as any other query.
 */
export class NamedStatements {
  private readonly names = new Map<string, string>();
  private generation = 0;

  constructor(private readonly limit = NAMED_STATEMENT_LIMIT) {}

  /** The statement name of `text`, or undefined when the limit is reached and `text` has none. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.limit) {
      name = `pp${this.generation}_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
      this.names.set(text, name);
    }
    return name;
  }

  /** Forgets every name; the next use of each text prepares it again under a new one. */
  startOver(): void {
    this.names.clear();
    this.generation += 1;
  }

  /**
   * Runs `text` on `manager`'s connection (its transaction's, or any pooled one) as a named statement, and answers
   * its rows whatever the command (TypeORM's `query` answers `[rows, count]` for a bare UPDATE or DELETE).
   */
  async query<R>(
    manager: EntityManager,
    text: string,
    values: unknown[],
    options: NamedQueryOptions = {},
    retried = false,
  ): Promise<R[]> {
    const target = connectionOf(manager);
    if (!target) return manager.query<R[]>(text, values);
    const pooled = behindTransactionPooler(manager.connection);
    const name = pooled ? undefined : this.nameOf(text);
    if (!pooled && name === undefined) return manager.query<R[]>(text, values);
    const answer = target.db.query({ name, text, values });
    // Written right behind the statement, before either answer is read: one round trip for both. Only behind values
    // pg cannot fail to send: a statement refused before it reaches PostgreSQL (a value pg cannot encode) would not
    // abort the transaction, and the COMMIT behind it would keep the rest of it.
    const commit = options.commits && values.every(sendsSafely) ? commitBehind(manager, target.db) : undefined;
    let rows: unknown[];
    try {
      ({ rows } = await answer);
    } catch (error) {
      // PostgreSQL answers the COMMIT behind a failed statement with a rollback; the connection goes back to the pool
      // only once that answer is in, so no other transaction's statements follow it on the wire while it is pending.
      await commit?.catch(() => undefined);
      if (isStalePlan(error)) {
        this.startOver();
        if (!target.inTransaction && !retried) return this.query<R>(manager, text, values, options, true);
      }
      // As TypeORM reports a failed query, so the exception filter reads it the same way.
      throw new QueryFailedError(text, values, error as Error);
    }
    if (commit) {
      try {
        await commit;
      } catch (error) {
        throw new QueryFailedError('COMMIT', [], error as Error);
      }
    }
    return rows as R[];
  }
}

/**
 * The `pg` connection a query on `manager` goes to: its transaction's client, or the pool outside one. Undefined
 * when there is none yet (a query runner not connected), and the query then goes through TypeORM.
 */
function connectionOf(manager: EntityManager): { db: NamedQueryable; inTransaction: boolean } | undefined {
  const runner = manager.queryRunner;
  // A PostgreSQL query runner's client (PostgresQueryRunner.databaseConnection, not on the QueryRunner interface).
  const client =
    runner && !runner.isReleased ? (runner as { databaseConnection?: NamedQueryable }).databaseConnection : undefined;
  if (runner) return client ? { db: client, inTransaction: runner.isTransactionActive } : undefined;
  const pool = (manager.connection.driver as unknown as { master?: NamedQueryable }).master;
  return pool ? { db: pool, inTransaction: false } : undefined;
}

/**
 * A value pg writes as it is (`prepareValue`: text, numbers, booleans, bytes, dates), so binding it cannot fail in
 * the client; an object or array is serialised by pg first, and that can throw (a cycle, a `toPostgres` that does).
 */
function sendsSafely(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof Date ||
    Buffer.isBuffer(value)
  );
}

/** PostgreSQL's refusal of a prepared statement whose result columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}
