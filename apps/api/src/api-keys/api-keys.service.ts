import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import {
  Clock,
  teamScopedQuery,
  RecordNotFoundError,
  type Caller,
  CallerLookup,
  type Identification,
  type KeyAccess,
} from '@app/common';
import { ApiKeyCache } from './api-key-cache.js';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-secret.js';

/** How many characters of a key the dashboard and the CLI show to tell keys apart. */
export const KEY_PREFIX_LENGTH = 12;

export interface CreatedKey {
  teamId: string;
  apiKeyId: string;
  apiKey: string;
}

export interface KeyOptions {
  access?: KeyAccess;
  /** When the key stops working; null or omitted: never. */
  expiresAt?: Date | null;
}

export interface KeyListing {
  apiKeyId: string;
  name: string | null;
  prefix: string | null;
  access: KeyAccess;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The key that replaced this one when it was rolled. */
  replacedBy: string | null;
}

interface KeyRow {
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

const FROM_MEMORY: Identification = { lookedUp: false, deferred: false };
const LOOKED_UP_NOTHING: Identification = { lookedUp: true, deferred: false };

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

function listingOf(row: KeyRow): KeyListing {
  return {
    apiKeyId: row.id,
    name: row.name,
    prefix: row.prefix,
    access: row.access,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    replacedBy: row.replaced_by,
  };
}

/** Whether a key still works at `now` (its expiry, or the end of its grace after a roll, is later). */
export function keyIsLive(caller: Caller, now: number): boolean {
  return caller.expiresAt === null || caller.expiresAt > now;
}

/**
 * Teams and their API keys. Every statement is scoped by team except `authenticate`'s lookup by key hash,
 * which is how a request finds its team in the first place, and the CLI's revoke by key id (an operator's
 * command). Changes to a key's revocation, expiry or access are announced to every instance by a trigger.
 */
@Injectable()
export class ApiKeysService implements CallerLookup {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async createTeam(name: string): Promise<CreatedKey> {
    return this.db.transaction(async (manager) => {
      const teamId = randomUUID();
      await manager.query('INSERT INTO teams (id, name) VALUES ($1, $2)', [teamId, name]);
      return this.insertKey(manager, teamId, 'default', {});
    });
  }

  async createKey(teamId: string, name: string | null, options: KeyOptions = {}): Promise<CreatedKey> {
    await this.requireTeam(teamId);
    return this.insertKey(this.db.manager, teamId, name, options);
  }

  /**
   * Every team with its keys counted two ways: `liveKeys` (neither revoked nor expired: the keys that work now)
   * and `totalKeys` (every key ever made for it).
   */
  async listTeams(): Promise<
    Array<{ teamId: string; name: string; createdAt: string; liveKeys: number; totalKeys: number }>
  > {
    const rows: Array<{ id: string; name: string; created_at: Date; live: number; total: number }> =
      await this.db.query(
        `SELECT t.id, t.name, t.created_at,
                (SELECT count(*)::int FROM api_keys k
                  WHERE k.team_id = t.id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $1)
                ) AS live,
                (SELECT count(*)::int FROM api_keys k WHERE k.team_id = t.id) AS total
           FROM teams t ORDER BY t.created_at, t.id`,
        [new Date(this.clock.now())],
      );
    return rows.map((row) => ({
      teamId: row.id,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      liveKeys: row.live,
      totalKeys: row.total,
    }));
  }

  async listKeys(teamId: string): Promise<KeyListing[]> {
    await this.requireTeam(teamId);
    const rows = await teamScopedQuery<KeyRow>(
      this.db.manager,
      teamId,
      'SELECT * FROM api_keys WHERE team_id = $1 ORDER BY created_at, id',
    );
    return rows.map(listingOf);
  }

  /**
   * Revokes a key at once; idempotent. With `teamId` (the dashboard), a key of another team is answered as
   * missing; without it (the operator's CLI), any key.
   */
  async revoke(apiKeyId: string, teamId?: string): Promise<{ apiKeyId: string; revokedAt: string }> {
    const key = teamId === undefined ? await this.revokeAny(apiKeyId) : await this.revokeOwn(teamId, apiKeyId);
    if (!key?.revoked_at) throw new RecordNotFoundError('API key');
    this.cache.forget(key.key_hash);
    return { apiKeyId: key.id, revokedAt: key.revoked_at.toISOString() };
  }

  /**
   * Rolls a key: a new key with the same name, access and expiry replaces it; the old one keeps working for
   * `graceMs` (0: revoked at once), then stops on every instance. A revoked or expired key cannot be rolled.
   */
  async roll(teamId: string, apiKeyId: string, graceMs: number): Promise<CreatedKey> {
    const now = this.clock.now();
    const { created, oldHash } = await this.db.transaction(async (manager) => {
      const rows = await teamScopedQuery<KeyRow>(
        manager,
        teamId,
        'SELECT * FROM api_keys WHERE team_id = $1 AND id = $2 AND revoked_at IS NULL FOR UPDATE',
        [apiKeyId],
      );
      const old = rows[0];
      if (!old || (old.expires_at && old.expires_at.getTime() <= now)) throw new RecordNotFoundError('API key');
      const created = await this.insertKey(manager, teamId, old.name, {
        access: old.access,
        expiresAt: old.expires_at,
      });
      if (graceMs <= 0) {
        await teamScopedQuery(
          manager,
          teamId,
          'UPDATE api_keys SET revoked_at = now(), replaced_by = $3 WHERE team_id = $1 AND id = $2',
          [apiKeyId, created.apiKeyId],
        );
      } else {
        const end = new Date(Math.min(now + graceMs, old.expires_at?.getTime() ?? Number.POSITIVE_INFINITY));
        await teamScopedQuery(
          manager,
          teamId,
          'UPDATE api_keys SET expires_at = $3, replaced_by = $4 WHERE team_id = $1 AND id = $2',
          [apiKeyId, end, created.apiKeyId],
        );
      }
      return { created, oldHash: old.key_hash };
    });
    this.cache.forget(oldHash);
    return created;
  }

  /** The dashboard: a key of the team, scoped like every team's query (another team's key is missing). */
  private async revokeOwn(teamId: string, apiKeyId: string): Promise<KeyRow | undefined> {
    const where = 'WHERE team_id = $1 AND id = $2';
    await teamScopedQuery(
      this.db.manager,
      teamId,
      `UPDATE api_keys SET revoked_at = now() ${where} AND revoked_at IS NULL`,
      [apiKeyId],
    );
    const [key] = await teamScopedQuery<KeyRow>(this.db.manager, teamId, `SELECT * FROM api_keys ${where}`, [apiKeyId]);
    return key;
  }

  /** The operator's CLI: any key by its id, the one write here that is not scoped by team. */
  private async revokeAny(apiKeyId: string): Promise<KeyRow | undefined> {
    await this.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [apiKeyId]);
    const [key]: KeyRow[] = await this.db.query('SELECT * FROM api_keys WHERE id = $1', [apiKeyId]);
    return key;
  }

  async countTeams(): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query('SELECT count(*)::int AS n FROM teams');
    return rows[0].n;
  }

  /**
   * The caller behind a bearer token, or undefined when the token is malformed, unknown, revoked or expired.
   * `cachedOnly`: never the database; a key not cached is undefined.
   */
  async authenticate(token: string, { cachedOnly = false } = {}): Promise<Caller | undefined> {
    return (await this.identify(token, () => !cachedOnly)).caller;
  }

  /**
   * `authenticate`, saying what it cost: `lookedUp` when the database was asked, `deferred` when it had to be and
   * `mayLookUp` said no (the failed-authentication limiter's budget). A malformed token, a cached key and a key
   * the database refused lately (the cache's negative side: a client that keeps sending a revoked or mistyped key)
   * are answered from memory and cost no lookup; `mayLookUp` is asked only when one is needed.
   */
  async identify(token: string, mayLookUp: () => boolean = () => true): Promise<Identification> {
    if (!API_KEY_PATTERN.test(token)) return FROM_MEMORY;
    const hash = hashApiKey(token);
    const cached = await this.cache.get(hash, Date.now());
    if (cached)
      return keyIsLive(cached, this.clock.now()) ? { caller: cached, lookedUp: false, deferred: false } : FROM_MEMORY;
    if (this.cache.isRefused(hash, this.clock.now())) return FROM_MEMORY;
    if (!mayLookUp()) return { lookedUp: false, deferred: true };
    const snapshot = this.cache.snapshot();
    // The one query not scoped by team: the key is how a request finds its team.
    const rows: Array<{
      team_id: string;
      id: string;
      name: string | null;
      access: KeyAccess;
      expires_at: Date | null;
    }> = await this.db.query(
      'SELECT team_id, id, name, access, expires_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    const row = rows[0];
    if (!row) {
      this.cache.refuse(hash, this.clock.now());
      return LOOKED_UP_NOTHING;
    }
    const caller: Caller = {
      teamId: row.team_id,
      apiKeyId: row.id,
      apiKeyName: row.name,
      access: row.access,
      expiresAt: row.expires_at?.getTime() ?? null,
    };
    // An expired key is cached too: it is refused from memory until the entry ages out.
    this.cache.set(hash, caller, snapshot, Date.now());
    return keyIsLive(caller, this.clock.now()) ? { caller, lookedUp: true, deferred: false } : LOOKED_UP_NOTHING;
  }

  private async requireTeam(teamId: string): Promise<void> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM teams WHERE id = $1', [teamId]);
    if (rows.length === 0) throw new RecordNotFoundError('Team');
  }

  private async insertKey(
    manager: EntityManager,
    teamId: string,
    name: string | null,
    { access = 'read_write', expiresAt = null }: KeyOptions,
  ): Promise<CreatedKey> {
    const apiKey = generateApiKey();
    const id = randomUUID();
    await manager.query(
      `INSERT INTO api_keys (team_id, id, name, key_hash, prefix, access, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [teamId, id, name, hashApiKey(apiKey), apiKey.slice(0, KEY_PREFIX_LENGTH), access, expiresAt],
    );
    return { teamId, apiKeyId: id, apiKey };
  }
}
