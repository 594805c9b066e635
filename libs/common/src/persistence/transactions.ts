import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ScopedStorage } from '../async/scoped-storage.js';
import { NamedStatements } from './named-statements.js';
import { beginPipelined, confirmBegun, type PipelineClient } from './pipelined-transactions.js';

/**
 * The transaction a request runs in, when it runs in one (a request with `Idempotency-Key` or `If-Match`
 * writes its answer or checks its precondition in the same transaction as the change). Repositories use it
 * unless given a manager, so the services' own transactions join it instead of opening a second connection.
 */
const ambient = new ScopedStorage<EntityManager>();

/** The manager of the transaction the current request runs in, if any. */
export function ambientManager(): EntityManager | undefined {
  return ambient.getStore();
}

/**
 * Runs `work` in a new transaction that becomes the ambient one for everything `work` awaits. On a pipelined
 * connection (the pool's) its BEGIN goes out with the first statement (`beginPipelined`), and its last statement may
 * carry the COMMIT (`commits`); else it begins and commits as TypeORM's `transaction` does. It rolls back when `work`
 * fails.
 */
export async function runInTransaction<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const runner = db.createQueryRunner();
  try {
    const client = (await runner.connect()) as PipelineClient;
    if (client.pipeline) beginPipelined(runner, client);
    else await runner.startTransaction();
    const { manager } = runner;
    try {
      const result = await ambient.run(manager, () => work(manager));
      await confirmBegun(runner);
      // Unless its last statement carried the COMMIT.
      if (runner.isTransactionActive) await runner.commitTransaction();
      return result;
    } catch (error) {
      // The failure reported is `work`'s, even should the rollback fail too (its connection lost).
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `work` in a transaction: the request's, when there is one, else a new one that commits when `work` resolves.
   * `own`: the transaction is `work`'s own, so its last statement may carry the COMMIT (`commits`).
   */
  run<T>(work: (manager: EntityManager, own: boolean) => Promise<T>): Promise<T> {
    const current = ambient.getStore();
    if (current) return work(current, false);
    return runInTransaction(this.db, (manager) => work(manager, true));
  }
}

/** The names of the prepared team-scoped SQL texts, shared by every data source of the process (a name is its text's hash). */
const statements = new NamedStatements();

/**
 * Runs SQL whose team scoping was built in by its caller with the team bound as `$1` (the caller's parameters
 * follow as `$2`…): the team-scoped builders (`team-sql.ts`), the paging helper, and the statements listed in
 * `unscoped-statements.ts`. Not exported from the library.
 *
 * `prepared`: run as a named statement (`NamedStatements`), parsed and planned once per connection. Only for
 * SQL whose best plan does not depend on the values bound (a lookup by primary key, the team's change version):
 * PostgreSQL may settle on one plan for all values, and a filter's or a search's best plan depends on them.
 * `commits`: a prepared statement that is its own transaction's last (`NamedQueryOptions`).
 */
export function runTeamSql<R>(
  manager: EntityManager,
  teamId: string,
  text: string,
  params: unknown[],
  options: { prepared?: boolean; commits?: boolean } = {},
): Promise<R[]> {
  const values = [teamId, ...params];
  return options.prepared ? statements.query<R>(manager, text, values, options) : manager.query<R[]>(text, values);
}

/**
 * SQL that needs no team scoping (it compares no `team_id`, e.g. an advisory lock) as a prepared statement, for
 * the same kind of SQL as the team-scoped builders' `prepared`: its best plan does not depend on the values bound.
 */
export function preparedQuery<R>(manager: EntityManager, text: string, values: unknown[]): Promise<R[]> {
  return statements.query<R>(manager, text, values);
}
