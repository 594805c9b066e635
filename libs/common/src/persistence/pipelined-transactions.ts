import type { EntityManager, QueryRunner } from 'typeorm';

/**
 * What this module needs of a pooled `pg` client: whether it is in pipeline mode (`pipeline: true`, set for the
 * pool in `dataSourceOptions`), in which each query is written at once, without waiting for the answer to the one
 * before it, and the answers come back in order; and a query.
 */
export interface PipelineClient {
  pipeline?: boolean;
  query(text: string): Promise<unknown>;
}

/** TypeORM's record of a query runner's transaction (`BaseQueryRunner`), kept by its `startTransaction` and `commitTransaction`. */
interface RunnerTransaction {
  isTransactionActive: boolean;
  transactionDepth: number;
}

/** The transactions begun by `beginPipelined`, by query runner: the BEGIN's answer. */
const begun = new WeakMap<QueryRunner, Promise<unknown>>();

/**
 * Begins a transaction without waiting for PostgreSQL's answer: BEGIN is written now and the transaction's first
 * statement goes out right behind it, so the two take one round trip (docs/performance.md, "Round trips per write").
 * Safe because one connection is an ordered stream: the statement cannot run before the BEGIN, and a BEGIN can fail
 * only with its connection, which then fails every statement after it. TypeORM's record of the transaction is set as
 * its `startTransaction` sets it, so its own writes (`save`) join the transaction instead of opening one.
 */
export function beginPipelined(runner: QueryRunner, client: PipelineClient): void {
  const answer = client.query('BEGIN');
  // Read by `confirmBegun`, before the transaction commits; meanwhile a failure must not go unhandled.
  answer.catch(() => undefined);
  begun.set(runner, answer);
  const transaction = runner as unknown as RunnerTransaction;
  transaction.isTransactionActive = true;
  transaction.transactionDepth = 1;
}

/** Throws the BEGIN's failure, if `beginPipelined` began `runner`'s transaction and the BEGIN failed. */
export async function confirmBegun(runner: QueryRunner): Promise<void> {
  await begun.get(runner);
}

/**
 * Writes COMMIT right behind a statement just written on `client` (one round trip for both), when `manager` runs in a
 * transaction `beginPipelined` began, still open at its outermost level: the COMMIT's answer. Its caller's statement
 * must be the transaction's last. Should the statement fail, PostgreSQL answers the COMMIT with a ROLLBACK (the
 * transaction is aborted), so nothing of it is kept. Undefined when the transaction is left to commit as usual (no
 * pipeline, a savepoint, not begun here).
 */
export function commitBehind(manager: EntityManager, client: PipelineClient): Promise<unknown> | undefined {
  const runner = manager.queryRunner;
  if (!runner || !client.pipeline || !begun.has(runner)) return undefined;
  const transaction = runner as unknown as RunnerTransaction;
  if (!transaction.isTransactionActive || transaction.transactionDepth !== 1) return undefined;
  // Ended from here on, whatever the answer: committed, or rolled back by PostgreSQL.
  transaction.isTransactionActive = false;
  transaction.transactionDepth = 0;
  return client.query('COMMIT');
}
