import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, Clock } from '@app/common';
import { type Account } from './accounts/index.js';

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
const DAY_MS = 86_400_000;
/** `last_seen_at` is written at most this often per session (not on every page). */
const TOUCH_EVERY_MS = 60_000;

export interface Session {
  teamId: string;
  userId: string;
  email: string;
  teamName: string;
  csrfToken: string;
}

const hashOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');

/**
 * Dashboard sessions in a small PostgreSQL table (`dashboard_sessions`), so every instance knows every
 * session and a restart signs no one out. Only a hash of the session id is stored. The table is small and the
 * rules are ours (idle expiry and an absolute lifetime of `DASHBOARD_SESSION_MAX_DAYS` from sign-in, by the
 * injected clock, so a session used every day still ends; a fresh id at every sign-in; a CSRF token per session), so
 * a session library would add a store adapter and a second cookie format for a dozen lines of SQL.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** How long a session lives from sign-in, however often it is used. */
  private get maxAgeMs(): number {
    return this.config.DASHBOARD_SESSION_MAX_DAYS * DAY_MS;
  }

  /** A new session (always a new id) for someone who just signed in or up. */
  async start(account: Account): Promise<{ sessionId: string; session: Session }> {
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const now = new Date(this.clock.now());
    await this.db.query(
      `INSERT INTO dashboard_sessions (id_hash, team_id, user_id, csrf_token, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [hashOf(sessionId), account.teamId, account.userId, csrfToken, now],
    );
    return {
      sessionId,
      session: {
        teamId: account.teamId,
        userId: account.userId,
        email: account.email,
        teamName: account.teamName,
        csrfToken,
      },
    };
  }

  /**
   * The live session behind a cookie; 'expired' when it existed but sat idle too long or reached its absolute
   * lifetime (it is ended then).
   */
  async find(sessionId: string): Promise<Session | 'expired' | undefined> {
    const rows: Array<{
      team_id: string;
      user_id: string;
      email: string;
      team_name: string;
      csrf_token: string;
      created_at: Date;
      last_seen_at: Date;
    }> = await this.db.query(
      `SELECT s.team_id, s.user_id, u.email, t.name AS team_name, s.csrf_token, s.created_at, s.last_seen_at
         FROM dashboard_sessions s
         JOIN users u ON u.team_id = s.team_id AND u.id = s.user_id
         JOIN teams t ON t.id = s.team_id
        WHERE s.id_hash = $1`,
      [hashOf(sessionId)],
    );
    const row = rows[0];
    if (!row) return undefined;
    const now = this.clock.now();
    const idle = now - row.last_seen_at.getTime();
    if (idle >= SESSION_IDLE_MS || now - row.created_at.getTime() >= this.maxAgeMs) {
      await this.end(sessionId);
      return 'expired';
    }
    if (idle >= TOUCH_EVERY_MS) {
      await this.db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id_hash = $1', [
        hashOf(sessionId),
        new Date(now),
      ]);
    }
    return {
      teamId: row.team_id,
      userId: row.user_id,
      email: row.email,
      teamName: row.team_name,
      csrfToken: row.csrf_token,
    };
  }

  async end(sessionId: string): Promise<void> {
    await this.db.query('DELETE FROM dashboard_sessions WHERE id_hash = $1', [hashOf(sessionId)]);
  }

  /** Deletes sessions idle for longer than the limit or past their absolute lifetime (the scheduled cleanup). */
  async deleteExpired(): Promise<number> {
    const now = this.clock.now();
    const [, count]: [unknown, number] = await this.db.query(
      'DELETE FROM dashboard_sessions WHERE last_seen_at <= $1 OR created_at <= $2',
      [new Date(now - SESSION_IDLE_MS), new Date(now - this.maxAgeMs)],
    );
    return count;
  }
}
