import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock.js';
import { ConflictError, DomainError, RecordNotFoundError } from '../errors/domain-errors.js';
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  UNKNOWN_USER_HASH,
  verifyPassword,
} from './password.js';

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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;
const MAX_TEAM_NAME_LENGTH = 200;

export type SignInResult =
  { outcome: 'signed-in'; account: Account } | { outcome: 'wrong' } | { outcome: 'throttled'; retryAfterMs: number };

/**
 * Users (dashboard accounts) and sign-in. Passwords are stored only as salted scrypt hashes; failed sign-ins
 * are counted per email in PostgreSQL, so the limit holds across instances and restarts.
 */
@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Creates a team and its owner; the email must be new. */
  async signUp(teamName: string, email: string, password: string): Promise<Account> {
    const name = checkTeamName(teamName);
    const address = checkEmail(email);
    const hash = await hashPassword(checkPassword(password));
    return this.db.transaction(async (manager) => {
      const teamId = randomUUID();
      await manager.query('INSERT INTO teams (id, name) VALUES ($1, $2)', [teamId, name]);
      const userId = await this.insertUser(manager.query.bind(manager), teamId, address, hash);
      return { userId, teamId, teamName: name, email: address };
    });
  }

  /** Adds a person to an existing team (the CLI's `users create`). */
  async createUser(teamId: string, email: string, password: string): Promise<{ userId: string }> {
    const address = checkEmail(email);
    const hash = await hashPassword(checkPassword(password));
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
   * email and a wrong password take as long and answer alike.
   */
  async signIn(email: string, password: string): Promise<SignInResult> {
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
    const matches = await verifyPassword(password, user?.password_hash ?? UNKNOWN_USER_HASH);
    if (!user || !matches) {
      await this.db.query('INSERT INTO sign_in_failures (email, failed_at) VALUES ($1, $2)', [address, new Date(now)]);
      return { outcome: 'wrong' };
    }
    await this.db.query('DELETE FROM sign_in_failures WHERE email = $1', [address]);
    return {
      outcome: 'signed-in',
      account: { userId: user.id, teamId: user.team_id, teamName: user.team_name, email: user.email },
    };
  }

  /** Forgets failures that have left the window (the scheduled cleanup). */
  async deleteOldFailures(): Promise<void> {
    await this.db.query('DELETE FROM sign_in_failures WHERE failed_at <= $1', [
      new Date(this.clock.now() - SIGN_IN_WINDOW_MS),
    ]);
  }

  private async insertUser(
    query: (sql: string, parameters: unknown[]) => Promise<unknown>,
    teamId: string,
    email: string,
    hash: string,
  ): Promise<string> {
    const userId = randomUUID();
    try {
      await query('INSERT INTO users (team_id, id, email, password_hash) VALUES ($1, $2, $3, $4)', [
        teamId,
        userId,
        email,
        hash,
      ]);
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

function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AccountInputError(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new AccountInputError(`Password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
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
