import type { EntityManager } from 'typeorm';
import { preparedQuery, runTeamSql } from './transactions.js';

/**
 * The one door for SQL the team-scoped builders (`team-sql.ts`) cannot express. Each call passes a `why`: the
 * reason the statement is safe, kept beside its text (and listed in docs/architecture.md, "Team isolation"). Two
 * kinds, and no others:
 *
 * - `teamStatement`: team-scoped, but in a shape the builders do not build (a CTE over several tables, such as
 *   the outbox's insert that puts `$1` in every row it writes, or a create that takes the team's next number).
 *   The team is still bound as `$1`; the statement's author wrote `$1` into every row and every root table.
 * - `unscopedStatement`: not scoped by team at all, because it must not be: the lookup that finds the team (an
 *   API key by hash, a session by its id's hash, a person by email), an operator's command across teams, a
 *   maintenance job over every team's rows (cleanups, usage batches, the webhook queue), or an advisory lock.
 *
 * `scripts/check-plumbing.mjs` allows these two only in the files docs/architecture.md names.
 */
export interface Why {
  /** Why this statement may skip the builders (shown in code review; not sent to the database). */
  why: string;
  prepared?: boolean;
  /** A prepared statement that is the last of a transaction its caller owns: it may carry the COMMIT. */
  commits?: boolean;
}

export function teamStatement<R>(
  manager: EntityManager,
  teamId: string,
  text: string,
  params: unknown[],
  { prepared = false, commits = false }: Why,
): Promise<R[]> {
  return runTeamSql<R>(manager, teamId, text, params, { prepared, commits });
}

export function unscopedStatement<R>(
  manager: EntityManager,
  text: string,
  values: unknown[],
  { prepared = false }: Why,
): Promise<R[]> {
  return prepared ? preparedQuery<R>(manager, text, values) : manager.query<R[]>(text, values);
}
