import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, teamScopedQuery, type KeyAccess } from '@app/common';

/** An `api_keys` row as stored. */
export interface KeyRow {
  team_id: string;
  id: string;
  name: string | null;
  prefix: string | null;
  access: KeyAccess;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  replaced_by: string | null;
  key_hash: string;
}

/** A team with its keys counted: `live` (neither revoked nor expired at the time asked) and `total`. */
export interface TeamRow {
  id: string;
  name: string;
  created_at: Date;
  live: number;
  total: number;
}

/** What the lookup by hash reads of an unrevoked key. */
export type KeyByHashRow = Pick<KeyRow, 'team_id' | 'id' | 'name' | 'access' | 'expires_at'>;

/** A key to insert (only its hash and prefix are stored). */
export interface NewKey {
  id: string;
  name: string | null;
  keyHash: string;
  prefix: string;
  access: KeyAccess;
  expiresAt: Date | null;
}

/**
 * Teams and their API keys (`teams`, `api_keys`): the only SQL of the feature. Scoped by team except the lookup by
 * key hash (how a request finds its team) and the operator CLI's commands across teams (the unscoped statements
 * named in docs/architecture.md).
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.db.manager;
  }

  async insertTeam(id: string, name: string, manager?: EntityManager): Promise<void> {
    await this.manager(manager).query('INSERT INTO teams (id, name) VALUES ($1, $2)', [id, name]);
  }

  async teamExists(teamId: string): Promise<boolean> {
    const rows: unknown[] = await this.manager().query('SELECT 1 FROM teams WHERE id = $1', [teamId]);
    return rows.length > 0;
  }

  async countTeams(): Promise<number> {
    const rows: Array<{ n: number }> = await this.manager().query('SELECT count(*)::int AS n FROM teams');
    return rows[0].n;
  }

  /** Every team, oldest first, with its keys counted (live at `now`). */
  listTeams(now: Date): Promise<TeamRow[]> {
    return this.manager().query(
      `SELECT t.id, t.name, t.created_at,
              (SELECT count(*)::int FROM api_keys k
                WHERE k.team_id = t.id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $1)
              ) AS live,
              (SELECT count(*)::int FROM api_keys k WHERE k.team_id = t.id) AS total
         FROM teams t ORDER BY t.created_at, t.id`,
      [now],
    );
  }

  async insertKey(teamId: string, key: NewKey, manager?: EntityManager): Promise<void> {
    await this.manager(manager).query(
      `INSERT INTO api_keys (team_id, id, name, key_hash, prefix, access, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [teamId, key.id, key.name, key.keyHash, key.prefix, key.access, key.expiresAt],
    );
  }

  listKeys(teamId: string): Promise<KeyRow[]> {
    return teamScopedQuery<KeyRow>(
      this.manager(),
      teamId,
      'SELECT * FROM api_keys WHERE team_id = $1 ORDER BY created_at, id',
    );
  }

  /** The team's unrevoked key, locked until the transaction ends. */
  async lockUnrevoked(teamId: string, id: string, manager: EntityManager): Promise<KeyRow | undefined> {
    const [row] = await teamScopedQuery<KeyRow>(
      manager,
      teamId,
      'SELECT * FROM api_keys WHERE team_id = $1 AND id = $2 AND revoked_at IS NULL FOR UPDATE',
      [id],
    );
    return row;
  }

  /** Ends a rolled key: revoked now (`end` null) or working until `end`; either way replaced by `replacedBy`. */
  async replace(
    teamId: string,
    id: string,
    replacedBy: string,
    end: Date | null,
    manager: EntityManager,
  ): Promise<void> {
    if (end === null) {
      await teamScopedQuery(
        manager,
        teamId,
        'UPDATE api_keys SET revoked_at = now(), replaced_by = $3 WHERE team_id = $1 AND id = $2',
        [id, replacedBy],
      );
    } else {
      await teamScopedQuery(
        manager,
        teamId,
        'UPDATE api_keys SET expires_at = $3, replaced_by = $4 WHERE team_id = $1 AND id = $2',
        [id, end, replacedBy],
      );
    }
  }

  /** Revokes the team's key (idempotent) and reads it back; undefined when the team has no such key. */
  async revokeOwn(teamId: string, id: string): Promise<KeyRow | undefined> {
    const where = 'WHERE team_id = $1 AND id = $2';
    await teamScopedQuery(
      this.manager(),
      teamId,
      `UPDATE api_keys SET revoked_at = now() ${where} AND revoked_at IS NULL`,
      [id],
    );
    const [key] = await teamScopedQuery<KeyRow>(this.manager(), teamId, `SELECT * FROM api_keys ${where}`, [id]);
    return key;
  }

  /** The operator's CLI: revokes any key by its id (idempotent) and reads it back. */
  async revokeAny(id: string): Promise<KeyRow | undefined> {
    await this.manager().query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
    const [key]: KeyRow[] = await this.manager().query('SELECT * FROM api_keys WHERE id = $1', [id]);
    return key;
  }

  /** The unrevoked key with this hash: how a request finds its team, so not scoped by one. */
  async findByHash(hash: string): Promise<KeyByHashRow | undefined> {
    const rows: KeyByHashRow[] = await this.db.query(
      'SELECT team_id, id, name, access, expires_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    return rows[0];
  }
}
