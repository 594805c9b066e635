import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock, AppConfig, ConflictError, DomainError, RecordNotFoundError } from '@app/common';
import { HashingBusyError } from './hashing-gate.js';
import { PasswordHasher } from './password-hasher.js';
import { passwordProblem } from './password-policy.js';
import { hashPassword, UNKNOWN_USER_HASH } from './password.js';

/** A person who signs in to the dashboard, and the team they manage. */
export interface Account {
  userId: string;
  teamId: string;
  teamName: string;
  email: string;
}

/** Input a person can correct (a short password, a malformed email): shown as it is. */
export class AccountInputError extends DomainError {
  constructor(message: string) {
    super('invalid_reference', message);
    this.name = 'AccountInputError';
  }
}

/** Sign-in is refused for this long after too many failures for one email. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_MAX_FAILURES = 10;
/** Sign-ups per client address are counted over this window (`DASHBOARD_SIGNUPS_PER_HOUR`). */
export const SIGN_UP_WINDOW_MS = 3_600_000;
/** What a 429 for a busy password hash asks to wait: a hash takes about a tenth of that. */
export const HASHING_BUSY_RETRY_MS = 1_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;
const MAX_TEAM_NAME_LENGTH = 200;

/** Refused before anything was done: `throttled` by a count in a window, `busy` by the password-hashing gate. */
export type Refusal = { outcome: 'throttled'; retryAfterMs: number } | { outcome: 'busy'; retryAfterMs: number };

/** `welcome`: the first sign-in of an account made by sign-up (the dashboard greets it). */
export type SignInResult =
  { outcome: 'signed-in'; account: Account; welcome: boolean } | { outcome: 'wrong' } | Refusal;

/** `submitted` whether or not the email already had an account: the answer never tells which. */
export type SignUpResult = { outcome: 'submitted' } | Refusal;

const BUSY = { outcome: 'busy', retryAfterMs: HASHING_BUSY_RETRY_MS } as const;

/**
 * Users (dashboard accounts) and sign-in. Passwords are stored only as salted scrypt hashes; failed sign-ins
 * are counted per email in PostgreSQL, so the limit holds across instances and restarts.
 */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates a team and its owner when the email is new. The answer is the same (`submitted`), and takes as long
   * (one hash, one attempt recorded, one transaction), when the email already has an account, which is left as it
   * was: sign-up must not tell whether an email has an account. Input a person can correct throws
   * AccountInputError before anything is counted. More than `DASHBOARD_SIGNUPS_PER_HOUR` attempts from one client
   * address within the last hour are refused (`throttled`).
   */
  async signUp(teamName: string, email: string, password: string, client: string): Promise<SignUpResult> {
    const name = checkTeamName(teamName);
    const address = checkEmail(email);
    checkPassword(password, address);
    const throttled = await this.signUpThrottle(client);
    if (throttled) return throttled;
    let hash: string;
    try {
      hash = await this.hasher.hash(password, client);
    } catch (error) {
      if (error instanceof HashingBusyError) return BUSY;
      throw error;
    }
    await this.db.query('INSERT INTO sign_up_attempts (client, attempted_at) VALUES ($1, $2)', [
      client,
      new Date(this.clock.now()),
    ]);
    try {
      await this.db.transaction(async (manager) => {
        const teamId = randomUUID();
        await manager.query('INSERT INTO teams (id, name) VALUES ($1, $2)', [teamId, name]);
        await this.insertUser(manager.query.bind(manager), teamId, address, hash, { welcome: true });
      });
    } catch (error) {
      // The email has an account already: the team is rolled back and the answer stays the same.
      if (!(error instanceof ConflictError)) throw error;
    }
    return { outcome: 'submitted' };
  }

  /** Adds a person to an existing team (the CLI's `users create`). */
  async createUser(teamId: string, email: string, password: string): Promise<{ userId: string }> {
    const address = checkEmail(email);
    const hash = await hashPassword(checkPassword(password, address));
    const teams: unknown[] = await this.db.query('SELECT 1 FROM teams WHERE id = $1', [teamId]);
    if (teams.length === 0) throw new RecordNotFoundError('Team');
    return { userId: await this.insertUser(this.db.query.bind(this.db), teamId, address, hash) };
  }

  async countUsers(): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query('SELECT count(*)::int AS n FROM users');
    return rows[0].n;
  }

  /**
   * Checks a password. After `SIGN_IN_MAX_FAILURES` failures for one email within `SIGN_IN_WINDOW_MS`, every
   * attempt is refused (even with the right password) until the oldest of them leaves the window. An unknown
   * email and a wrong password take as long and answer alike. The hash waits for a turn at the password-hashing
   * gate (`busy` when the client address may not wait; nothing is counted then).
   */
  async signIn(email: string, password: string, client: string): Promise<SignInResult> {
    const address = email.trim().toLowerCase();
    const now = this.clock.now();
    const failures: Array<{ failed_at: Date }> = await this.db.query(
      'SELECT failed_at FROM sign_in_failures WHERE email = $1 AND failed_at > $2 ORDER BY failed_at DESC LIMIT $3',
      [address, new Date(now - SIGN_IN_WINDOW_MS), SIGN_IN_MAX_FAILURES],
    );
    if (failures.length >= SIGN_IN_MAX_FAILURES) {
      const oldest = failures[failures.length - 1].failed_at.getTime();
      return { outcome: 'throttled', retryAfterMs: Math.max(1_000, oldest + SIGN_IN_WINDOW_MS - now) };
    }
    const rows: Array<{ id: string; team_id: string; team_name: string; email: string; password_hash: string }> =
      await this.db.query(
        `SELECT u.id, u.team_id, t.name AS team_name, u.email, u.password_hash
           FROM users u JOIN teams t ON t.id = u.team_id WHERE lower(u.email) = $1`,
        [address],
      );
    const user = rows[0];
    let matches: boolean;
    try {
      matches = await this.hasher.verify(password, user?.password_hash ?? UNKNOWN_USER_HASH, client);
    } catch (error) {
      if (error instanceof HashingBusyError) return BUSY;
      throw error;
    }
    if (!user || !matches) {
      await this.db.query('INSERT INTO sign_in_failures (email, failed_at) VALUES ($1, $2)', [address, new Date(now)]);
      return { outcome: 'wrong' };
    }
    await this.db.query('DELETE FROM sign_in_failures WHERE email = $1', [address]);
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, greeted]: [unknown, number] = await this.db.query(
      'UPDATE users SET welcome_pending = false WHERE team_id = $1 AND id = $2 AND welcome_pending',
      [user.team_id, user.id],
    );
    return {
      outcome: 'signed-in',
      account: { userId: user.id, teamId: user.team_id, teamName: user.team_name, email: user.email },
      welcome: greeted > 0,
    };
  }

  /** Forgets failed sign-ins and sign-up attempts that have left their windows (the scheduled cleanup). */
  async deleteOldFailures(): Promise<void> {
    const now = this.clock.now();
    await this.db.query('DELETE FROM sign_in_failures WHERE failed_at <= $1', [new Date(now - SIGN_IN_WINDOW_MS)]);
    await this.db.query('DELETE FROM sign_up_attempts WHERE attempted_at <= $1', [new Date(now - SIGN_UP_WINDOW_MS)]);
  }

  /** `throttled` (with the wait until the oldest counted attempt leaves the hour) once the client used its sign-ups. */
  private async signUpThrottle(client: string): Promise<Refusal | undefined> {
    const limit = this.config.DASHBOARD_SIGNUPS_PER_HOUR;
    const now = this.clock.now();
    const attempts: Array<{ attempted_at: Date }> = await this.db.query(
      `SELECT attempted_at FROM sign_up_attempts WHERE client = $1 AND attempted_at > $2
        ORDER BY attempted_at DESC LIMIT $3`,
      [client, new Date(now - SIGN_UP_WINDOW_MS), limit],
    );
    if (attempts.length < limit) return undefined;
    const oldest = attempts[attempts.length - 1].attempted_at.getTime();
    return { outcome: 'throttled', retryAfterMs: Math.max(1_000, oldest + SIGN_UP_WINDOW_MS - now) };
  }

  private async insertUser(
    query: (sql: string, parameters: unknown[]) => Promise<unknown>,
    teamId: string,
    email: string,
    hash: string,
    { welcome = false } = {},
  ): Promise<string> {
    const userId = randomUUID();
    try {
      await query(
        'INSERT INTO users (team_id, id, email, password_hash, welcome_pending) VALUES ($1, $2, $3, $4, $5)',
        [teamId, userId, email, hash, welcome],
      );
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') {
        throw new ConflictError('An account with this email already exists');
      }
      throw error;
    }
    return userId;
  }
}

function checkEmail(email: string): string {
  const address = email.trim();
  if (address === '') throw new AccountInputError('Email is required');
  if (address.length > MAX_EMAIL_LENGTH || !EMAIL.test(address)) {
    throw new AccountInputError('Email must be a valid email address of at most 254 characters');
  }
  return address;
}

function checkPassword(password: string, email: string): string {
  const problem = passwordProblem(password, email);
  if (problem) throw new AccountInputError(problem);
  return password;
}

function checkTeamName(teamName: string): string {
  const name = teamName.trim();
  if (name === '') throw new AccountInputError('Team name is required');
  if (name.length > MAX_TEAM_NAME_LENGTH) {
    throw new AccountInputError(`Team name must be at most ${MAX_TEAM_NAME_LENGTH} characters`);
  }
  return name;
}
