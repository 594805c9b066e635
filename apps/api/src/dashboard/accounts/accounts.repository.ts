import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, ConflictError, unscopedStatement } from '@app/common';

/** A person who may sign in, with their team's name and their password hash (`users` joined with `teams`). */
export interface UserRow {
  id: string;
  teamId: string;
  teamName: string;
  email: string;
  passwordHash: string;
}

export interface NewUser {
  teamId: string;
  id: string;
  email: string;
  passwordHash: string;
  /** The dashboard greets the first sign-in of an account made by sign-up. */
  welcome: boolean;
}

/** Why the statements here skip the team-scoped builders (docs/architecture.md, "Team isolation"). */
const ACCOUNTS_WHY =
  'a person is found by email before any team is known; attempts are counted per email or address; a sign-up makes the team';

/**
 * The dashboard's people and their sign-in bookkeeping: `users`, `sign_in_failures`, `sign_up_attempts` (and the
 * team a sign-up makes). Its statements find a person by email, before any team is known, or count attempts per
 * email or client address across teams: they are the unscoped statements named in docs/architecture.md.
 */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every statement here is unscoped by team: ACCOUNTS_WHY says why (unscoped-statements.ts). */
  private run<R = unknown>(manager: EntityManager, text: string, values: unknown[] = []): Promise<R[]> {
    return unscopedStatement<R>(manager, text, values, { why: ACCOUNTS_WHY });
  }

  /** `run` for an UPDATE or DELETE: how many rows it changed (TypeORM answers [rows, count]). */
  private async count(manager: EntityManager, text: string, values: unknown[]): Promise<number> {
    const [, affected] = await this.run(manager, text, values);
    return affected as number;
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.db.manager;
  }

  async insertTeam(id: string, name: string, manager?: EntityManager): Promise<void> {
    await this.run(this.manager(manager), 'INSERT INTO teams (id, name) VALUES ($1, $2)', [id, name]);
  }

  async teamExists(teamId: string): Promise<boolean> {
    const rows = await this.run<unknown>(this.manager(), 'SELECT 1 FROM teams WHERE id = $1 AND live_team_id IS NULL', [
      teamId,
    ]);
    return rows.length > 0;
  }

  /** Inserts a person; a ConflictError when the email has an account already. */
  async insertUser(user: NewUser, manager?: EntityManager): Promise<void> {
    try {
      await this.run(
        this.manager(manager),
        'INSERT INTO users (team_id, id, email, password_hash, welcome_pending) VALUES ($1, $2, $3, $4, $5)',
        [user.teamId, user.id, user.email, user.passwordHash, user.welcome],
      );
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') {
        throw new ConflictError('An account with this email already exists');
      }
      throw error;
    }
  }

  async countUsers(): Promise<number> {
    const rows = await this.run<{ n: number }>(this.manager(), 'SELECT count(*)::int AS n FROM users');
    return rows[0].n;
  }

  /** The person with this email (compared in lower case), if any. */
  async findByEmail(address: string): Promise<UserRow | undefined> {
    const rows = await this.run<UserRow>(
      this.manager(),
      `SELECT u.id, u.team_id AS "teamId", t.name AS "teamName", u.email, u.password_hash AS "passwordHash"
         FROM users u JOIN teams t ON t.id = u.team_id WHERE lower(u.email) = $1`,
      [address],
    );
    return rows[0];
  }

  /** Clears the first-sign-in greeting; true when it was still pending (this sign-in is the first). */
  async takeWelcome(teamId: string, userId: string): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const greeted = await this.count(
      this.manager(),
      'UPDATE users SET welcome_pending = false WHERE team_id = $1 AND id = $2 AND welcome_pending',
      [teamId, userId],
    );
    return greeted > 0;
  }

  /** When the latest `limit` failed sign-ins for this email since `since` happened, newest first. */
  async recentFailures(address: string, since: Date, limit: number): Promise<Date[]> {
    const rows = await this.run<{ failed_at: Date }>(
      this.manager(),
      'SELECT failed_at FROM sign_in_failures WHERE email = $1 AND failed_at > $2 ORDER BY failed_at DESC LIMIT $3',
      [address, since, limit],
    );
    return rows.map((row) => row.failed_at);
  }

  async recordFailure(address: string, at: Date): Promise<void> {
    await this.run(this.manager(), 'INSERT INTO sign_in_failures (email, failed_at) VALUES ($1, $2)', [address, at]);
  }

  async clearFailures(address: string): Promise<void> {
    await this.run(this.manager(), 'DELETE FROM sign_in_failures WHERE email = $1', [address]);
  }

  /** When the latest `limit` sign-ups from this client address since `since` happened, newest first. */
  async recentSignUps(client: string, since: Date, limit: number): Promise<Date[]> {
    const rows = await this.run<{ attempted_at: Date }>(
      this.manager(),
      `SELECT attempted_at FROM sign_up_attempts WHERE client = $1 AND attempted_at > $2
        ORDER BY attempted_at DESC LIMIT $3`,
      [client, since, limit],
    );
    return rows.map((row) => row.attempted_at);
  }

  async recordSignUp(client: string, at: Date): Promise<void> {
    await this.run(this.manager(), 'INSERT INTO sign_up_attempts (client, attempted_at) VALUES ($1, $2)', [client, at]);
  }

  /** Forgets failed sign-ins and sign-up attempts from before these times (the scheduled cleanup). */
  async deleteOld(failuresBefore: Date, signUpsBefore: Date): Promise<void> {
    await this.run(this.manager(), 'DELETE FROM sign_in_failures WHERE failed_at <= $1', [failuresBefore]);
    await this.run(this.manager(), 'DELETE FROM sign_up_attempts WHERE attempted_at <= $1', [signUpsBefore]);
  }
}
