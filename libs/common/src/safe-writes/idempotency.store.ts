import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { teamInsert, teamSelect } from '../persistence/team-sql.js';
import { unscopedStatement } from '../persistence/unscoped-statements.js';

/** Stored answers are replayed for 24 hours after the first request with their key completed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;

/** What a request sent with an `Idempotency-Key` was, and what it was answered. */
export interface StoredAnswer {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  /** The body exactly as sent (empty for 204). */
  body: string;
  entityTag: string | null;
}

/** The stored answers of requests sent with an `Idempotency-Key`, per team. */
@Injectable()
export class IdempotencyStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Takes the team's key for the rest of the transaction, or answers false when another request (on any
   * instance) holds it: the guarantee lives in PostgreSQL. Two 32-bit hashes make the lock's key; a collision
   * between two keys can only make one wait for the other's 409, never share an answer.
   */
  async claim(manager: EntityManager, teamId: string, key: string): Promise<boolean> {
    const [row] = await unscopedStatement<{ taken: boolean }>(
      manager,
      'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS taken',
      [teamId, key],
      { why: 'an advisory lock reads no table; its key is the team and the Idempotency-Key', prepared: true },
    );
    return row?.taken === true;
  }

  /** The answer stored for the key since `notBefore`, if any. */
  async find(manager: EntityManager, teamId: string, key: string, notBefore: Date): Promise<StoredAnswer | undefined> {
    const rows = await teamSelect<StoredAnswer>(
      manager,
      teamId,
      {
        from: 'idempotency_keys k',
        columns: 'k.method, k.path, k.fingerprint, k.status, k.body, k.entity_tag AS "entityTag"',
        where: 'k.key = $2 AND k.created_at > $3',
      },
      [key, notBefore],
      { prepared: true },
    );
    return rows[0];
  }

  /** Stores the answer, replacing an expired one that the cleanup has not removed yet. */
  async save(manager: EntityManager, teamId: string, key: string, answer: StoredAnswer, at: Date): Promise<void> {
    await teamInsert(
      manager,
      teamId,
      {
        into: 'idempotency_keys k',
        columns: ['key', 'method', 'path', 'fingerprint', 'status', 'body', 'entity_tag', 'created_at'],
        onConflict: `ON CONFLICT (team_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
          fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
          entity_tag = excluded.entity_tag, created_at = excluded.created_at
          WHERE k.team_id = $1`,
      },
      [key, answer.method, answer.path, answer.fingerprint, answer.status, answer.body, answer.entityTag, at],
      { prepared: true },
    );
  }

  /**
   * Deletes every team's answers stored before `before`. Maintenance over all teams, so the one query here that
   * is not team-scoped; safe to run on several instances at once (each row is deleted once).
   */
  async deleteStoredBefore(before: Date): Promise<number> {
    const [, affected] = await unscopedStatement<unknown>(
      this.db.manager,
      'DELETE FROM idempotency_keys WHERE created_at < $1',
      [before],
      { why: 'the retention cleanup: every team’s answers past the same age' },
    );
    return affected as number;
  }
}
