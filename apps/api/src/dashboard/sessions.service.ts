import { Injectable } from '@nestjs/common';
import { createHmac, hash, randomBytes } from 'node:crypto';
import { AppConfig, Clock } from '@app/common';
import { type Account } from './accounts/index.js';
import { SessionsRepository } from './sessions.repository.js';

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
const DAY_MS = 86_400_000;
/** `last_seen_at` is written at most this often per session (not on every page). */
const TOUCH_EVERY_MS = 60_000;

export interface Session {
  /**
   * The team whose data the pages show and change: the account's own (live) team, or in test mode its sandbox. A
   * key made for a sandbox's id is a test key (`ApiKeysService.createKey`).
   */
  teamId: string;
  /** The account's own team, which the session belongs to whatever the mode. */
  liveTeamId: string;
  /** "Test mode" is on: `teamId` is the live team's sandbox. */
  testMode: boolean;
  userId: string;
  email: string;
  teamName: string;
  /** The token the session's forms carry in its current mode (`formTokenOf`). */
  csrfToken: string;
}

const hashOf = (sessionId: string): string => hash('sha256', sessionId, 'hex');

/**
 * The form token of a session in a mode: its stored token when live, a token derived from it in test mode. A page
 * carries the token of the mode it was shown in, so a form from a tab still showing the other mode (live keys, while
 * another tab switched Test mode on) is refused like an out-of-date form instead of acting on the other team.
 */
function formTokenOf(csrfToken: string, testMode: boolean): string {
  return testMode ? createHmac('sha256', csrfToken).update('dashboard test mode').digest('base64url') : csrfToken;
}

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
    private readonly sessions: SessionsRepository,
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
    await this.sessions.insert(hashOf(sessionId), { teamId: account.teamId, userId: account.userId, csrfToken }, now);
    return {
      sessionId,
      session: {
        teamId: account.teamId,
        liveTeamId: account.teamId,
        testMode: false,
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
    const row = await this.sessions.find(hashOf(sessionId));
    if (!row) return undefined;
    const now = this.clock.now();
    const idle = now - row.lastSeenAt.getTime();
    if (idle >= SESSION_IDLE_MS || now - row.createdAt.getTime() >= this.maxAgeMs) {
      await this.end(sessionId);
      return 'expired';
    }
    if (idle >= TOUCH_EVERY_MS) {
      await this.sessions.touch(hashOf(sessionId), new Date(now));
    }
    // Switching Test mode on makes the sandbox first, so a session in test mode always finds one.
    const sandboxTeamId = row.testMode ? row.sandboxTeamId : null;
    const testMode = sandboxTeamId !== null;
    return {
      teamId: sandboxTeamId ?? row.teamId,
      liveTeamId: row.teamId,
      testMode,
      userId: row.userId,
      email: row.email,
      teamName: row.teamName,
      csrfToken: formTokenOf(row.csrfToken, testMode),
    };
  }

  /** Turns the session's Test mode on or off (the caller makes the sandbox first). */
  async setTestMode(sessionId: string, testMode: boolean): Promise<void> {
    await this.sessions.setTestMode(hashOf(sessionId), testMode);
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(hashOf(sessionId));
  }

  /** Deletes sessions idle for longer than the limit or past their absolute lifetime (the scheduled cleanup). */
  async deleteExpired(): Promise<number> {
    const now = this.clock.now();
    return this.sessions.deleteExpired(new Date(now - SESSION_IDLE_MS), new Date(now - this.maxAgeMs));
  }
}
