import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock, AppConfig, ConflictError, DomainError, RecordNotFoundError, Transactions } from '@app/common';
import { AccountsRepository } from './accounts.repository.js';
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
  constructor(message: string, field: 'teamName' | 'email' | 'password') {
    super('invalid_reference', message, field);
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
    private readonly accounts: AccountsRepository,
    private readonly transactions: Transactions,
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
    await this.accounts.recordSignUp(client, new Date(this.clock.now()));
    try {
      await this.transactions.run(async (manager) => {
        const teamId = randomUUID();
        await this.accounts.insertTeam(teamId, name, manager);
        await this.insertUser(teamId, address, hash, { welcome: true }, manager);
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
    if (!(await this.accounts.teamExists(teamId))) throw new RecordNotFoundError('Team');
    return { userId: await this.insertUser(teamId, address, hash) };
  }

  async countUsers(): Promise<number> {
    return this.accounts.countUsers();
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
    const failures = await this.accounts.recentFailures(
      address,
      new Date(now - SIGN_IN_WINDOW_MS),
      SIGN_IN_MAX_FAILURES,
    );
    if (failures.length >= SIGN_IN_MAX_FAILURES) {
      const oldest = failures[failures.length - 1].getTime();
      return { outcome: 'throttled', retryAfterMs: Math.max(1_000, oldest + SIGN_IN_WINDOW_MS - now) };
    }
    const user = await this.accounts.findByEmail(address);
    let matches: boolean;
    try {
      matches = await this.hasher.verify(password, user?.passwordHash ?? UNKNOWN_USER_HASH, client);
    } catch (error) {
      if (error instanceof HashingBusyError) return BUSY;
      throw error;
    }
    if (!user || !matches) {
      await this.accounts.recordFailure(address, new Date(now));
      return { outcome: 'wrong' };
    }
    await this.accounts.clearFailures(address);
    const welcome = await this.accounts.takeWelcome(user.teamId, user.id);
    return {
      outcome: 'signed-in',
      account: { userId: user.id, teamId: user.teamId, teamName: user.teamName, email: user.email },
      welcome,
    };
  }

  /** Forgets failed sign-ins and sign-up attempts that have left their windows (the scheduled cleanup). */
  async deleteOldFailures(): Promise<void> {
    const now = this.clock.now();
    await this.accounts.deleteOld(new Date(now - SIGN_IN_WINDOW_MS), new Date(now - SIGN_UP_WINDOW_MS));
  }

  /** `throttled` (with the wait until the oldest counted attempt leaves the hour) once the client used its sign-ups. */
  private async signUpThrottle(client: string): Promise<Refusal | undefined> {
    const limit = this.config.DASHBOARD_SIGNUPS_PER_HOUR;
    const now = this.clock.now();
    const attempts = await this.accounts.recentSignUps(client, new Date(now - SIGN_UP_WINDOW_MS), limit);
    if (attempts.length < limit) return undefined;
    const oldest = attempts[attempts.length - 1].getTime();
    return { outcome: 'throttled', retryAfterMs: Math.max(1_000, oldest + SIGN_UP_WINDOW_MS - now) };
  }

  private async insertUser(
    teamId: string,
    email: string,
    passwordHash: string,
    { welcome = false } = {},
    manager?: EntityManager,
  ): Promise<string> {
    const id = randomUUID();
    await this.accounts.insertUser({ teamId, id, email, passwordHash, welcome }, manager);
    return id;
  }
}

function checkEmail(email: string): string {
  const address = email.trim();
  if (address === '') throw new AccountInputError('Email is required', 'email');
  if (address.length > MAX_EMAIL_LENGTH || !EMAIL.test(address)) {
    throw new AccountInputError('Email must be a valid email address of at most 254 characters', 'email');
  }
  return address;
}

function checkPassword(password: string, email: string): string {
  const problem = passwordProblem(password, email);
  if (problem) throw new AccountInputError(problem, 'password');
  return password;
}

function checkTeamName(teamName: string): string {
  const name = teamName.trim();
  if (name === '') throw new AccountInputError('Team name is required', 'teamName');
  if (name.length > MAX_TEAM_NAME_LENGTH) {
    throw new AccountInputError(`Team name must be at most ${MAX_TEAM_NAME_LENGTH} characters`, 'teamName');
  }
  return name;
}
