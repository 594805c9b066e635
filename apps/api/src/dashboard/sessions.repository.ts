import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { unscopedStatement } from '@app/common';

/** A stored session with the person and team it belongs to (`dashboard_sessions` joined with `users`, `teams`). */
export interface SessionRow {
  teamId: string;
  /** Whether the session shows the team's sandbox ("Test mode"). */
  testMode: boolean;
  /** The live team's sandbox, when it has one yet. */
  sandboxTeamId: string | null;
  userId: string;
  email: string;
  teamName: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** Why the statements here skip the team-scoped builders (docs/architecture.md, "Team isolation"). */
const SESSIONS_WHY =
  'a session is found by its id’s hash (how a dashboard request finds its team); the cleanup spans all teams';

/**
 * `dashboard_sessions`, found by the hash of a session id: the cookie is how a dashboard request finds its team,
 * so these statements are not scoped by team (the unscoped statements named in docs/architecture.md).
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every statement here is unscoped by team: SESSIONS_WHY says why (unscoped-statements.ts). */
  private run<R = unknown>(manager: EntityManager, text: string, values: unknown[] = []): Promise<R[]> {
    return unscopedStatement<R>(manager, text, values, { why: SESSIONS_WHY });
  }

  /** `run` for an UPDATE or DELETE: how many rows it changed (TypeORM answers [rows, count]). */
  private async count(manager: EntityManager, text: string, values: unknown[]): Promise<number> {
    const [, affected] = await this.run(manager, text, values);
    return affected as number;
  }

  async insert(
    idHash: string,
    session: { teamId: string; userId: string; csrfToken: string },
    now: Date,
  ): Promise<void> {
    await this.run(
      this.db.manager,
      `INSERT INTO dashboard_sessions (id_hash, team_id, user_id, csrf_token, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [idHash, session.teamId, session.userId, session.csrfToken, now],
    );
  }

  async find(idHash: string): Promise<SessionRow | undefined> {
    const rows = await this.run<SessionRow>(
      this.db.manager,
      `SELECT s.team_id AS "teamId", s.user_id AS "userId", u.email, t.name AS "teamName",
              s.csrf_token AS "csrfToken", s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt",
              s.test_mode AS "testMode", sandbox.id AS "sandboxTeamId"
         FROM dashboard_sessions s
         JOIN users u ON u.team_id = s.team_id AND u.id = s.user_id
         JOIN teams t ON t.id = s.team_id
         LEFT JOIN teams sandbox ON sandbox.live_team_id = s.team_id
        WHERE s.id_hash = $1`,
      [idHash],
    );
    return rows[0];
  }

  async touch(idHash: string, at: Date): Promise<void> {
    await this.run(this.db.manager, 'UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, at]);
  }

  async setTestMode(idHash: string, testMode: boolean): Promise<void> {
    await this.run(this.db.manager, 'UPDATE dashboard_sessions SET test_mode = $2 WHERE id_hash = $1', [
      idHash,
      testMode,
    ]);
  }

  async delete(idHash: string): Promise<void> {
    await this.run(this.db.manager, 'DELETE FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
  }

  /** Deletes every session last seen by `idleBefore` or started by `startedBefore`; how many. */
  async deleteExpired(idleBefore: Date, startedBefore: Date): Promise<number> {
    const count = await this.count(
      this.db.manager,
      'DELETE FROM dashboard_sessions WHERE last_seen_at <= $1 OR created_at <= $2',
      [idleBefore, startedBefore],
    );
    return count;
  }
}
