import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, teamInsert, teamSelect, teamUpdate, unscopedStatement, type KeyAccess } from '@app/common';

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

/** A team as the key commands need it: a sandbox names its live team. */
export interface TeamKindRow {
  id: string;
  name: string;
  live_team_id: string | null;
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
    await unscopedStatement(this.manager(manager), 'INSERT INTO teams (id, name) VALUES ($1, $2)', [id, name], {
      why: 'a new team: its id is the team',
    });
  }

  /** The team, if any: `live_team_id` is null for a live team and its live team's id for a sandbox. */
  async findTeam(teamId: string, manager?: EntityManager): Promise<TeamKindRow | undefined> {
    const rows = await unscopedStatement<TeamKindRow>(
      this.manager(manager),
      'SELECT id, name, live_team_id FROM teams WHERE id = $1',
      [teamId],
      { why: 'the teams table itself, by the team’s id' },
    );
    return rows[0];
  }

  /**
   * The live team's sandbox, created if it has none yet (concurrent first uses agree on one: `live_team_id` is
   * unique). Undefined when `liveTeamId` is not a live team.
   */
  async sandboxOf(liveTeamId: string, manager?: EntityManager): Promise<string | undefined> {
    const why = 'a team’s sandbox: the teams table itself, by the live team’s id';
    await unscopedStatement(
      this.manager(manager),
      `INSERT INTO teams (id, name, live_team_id)
       SELECT gen_random_uuid(), t.name || ' (test mode)', t.id FROM teams t WHERE t.id = $1 AND t.live_team_id IS NULL
       ON CONFLICT (live_team_id) DO NOTHING`,
      [liveTeamId],
      { why },
    );
    const rows = await unscopedStatement<{ id: string }>(
      this.manager(manager),
      'SELECT id FROM teams WHERE live_team_id = $1',
      [liveTeamId],
      { why },
    );
    return rows[0]?.id;
  }

  async countTeams(): Promise<number> {
    const rows = await unscopedStatement<{ n: number }>(this.manager(), 'SELECT count(*)::int AS n FROM teams', [], {
      why: 'the first-run check counts every team (no team’s data is read)',
    });
    return rows[0].n;
  }

  /**
   * Every live team, oldest first, with its keys counted (live at `now`): the operator CLI's `teams list`. A
   * sandbox is not listed: it is reached through its live team (`keys list --team <teamId> --test`).
   */
  listTeams(now: Date): Promise<TeamRow[]> {
    return unscopedStatement<TeamRow>(
      this.manager(),
      `SELECT t.id, t.name, t.created_at,
              (SELECT count(*)::int FROM api_keys k
                WHERE k.team_id = t.id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $1)
              ) AS live,
              (SELECT count(*)::int FROM api_keys k WHERE k.team_id = t.id) AS total
         FROM teams t WHERE t.live_team_id IS NULL ORDER BY t.created_at, t.id`,
      [now],
      { why: 'an operator’s command across teams (the CLI)' },
    );
  }

  async insertKey(teamId: string, key: NewKey, manager?: EntityManager): Promise<void> {
    await teamInsert(
      this.manager(manager),
      teamId,
      { into: 'api_keys k', columns: ['id', 'name', 'key_hash', 'prefix', 'access', 'expires_at'] },
      [key.id, key.name, key.keyHash, key.prefix, key.access, key.expiresAt],
    );
  }

  listKeys(teamId: string): Promise<KeyRow[]> {
    return teamSelect<KeyRow>(this.manager(), teamId, {
      from: 'api_keys k',
      columns: 'k.*',
      orderBy: 'k.created_at, k.id',
    });
  }

  /** The team's unrevoked key, locked until the transaction ends. */
  async lockUnrevoked(teamId: string, id: string, manager: EntityManager): Promise<KeyRow | undefined> {
    const [row] = await teamSelect<KeyRow>(
      manager,
      teamId,
      { from: 'api_keys k', columns: 'k.*', where: 'k.id = $2 AND k.revoked_at IS NULL', lock: 'FOR UPDATE' },
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
      await teamUpdate(
        manager,
        teamId,
        { table: 'api_keys k', set: 'revoked_at = now(), replaced_by = $3', where: 'k.id = $2' },
        [id, replacedBy],
      );
    } else {
      await teamUpdate(
        manager,
        teamId,
        { table: 'api_keys k', set: 'expires_at = $3, replaced_by = $4', where: 'k.id = $2' },
        [id, end, replacedBy],
      );
    }
  }

  /** Revokes the team's key (idempotent) and reads it back; undefined when the team has no such key. */
  async revokeOwn(teamId: string, id: string): Promise<KeyRow | undefined> {
    await teamUpdate(
      this.manager(),
      teamId,
      { table: 'api_keys k', set: 'revoked_at = now()', where: 'k.id = $2 AND k.revoked_at IS NULL' },
      [id],
    );
    const [key] = await teamSelect<KeyRow>(
      this.manager(),
      teamId,
      { from: 'api_keys k', columns: 'k.*', where: 'k.id = $2' },
      [id],
    );
    return key;
  }

  /** The operator's CLI: revokes any key by its id (idempotent) and reads it back. */
  async revokeAny(id: string): Promise<KeyRow | undefined> {
    const why = 'an operator’s command across teams (the CLI revokes any key by id)';
    await unscopedStatement(
      this.manager(),
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
      [id],
      {
        why,
      },
    );
    const [key] = await unscopedStatement<KeyRow>(this.manager(), 'SELECT * FROM api_keys WHERE id = $1', [id], {
      why,
    });
    return key;
  }

  /** The unrevoked key with this hash: how a request finds its team, so not scoped by one. */
  async findByHash(hash: string): Promise<KeyByHashRow | undefined> {
    const rows = await unscopedStatement<KeyByHashRow>(
      this.db.manager,
      'SELECT team_id, id, name, access, expires_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
      { why: 'the key is how a request finds its team' },
    );
    return rows[0];
  }
}
