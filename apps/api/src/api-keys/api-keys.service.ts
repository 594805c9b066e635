import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  Clock,
  ConflictError,
  Transactions,
  RecordNotFoundError,
  type Caller,
  CallerLookup,
  type Identification,
  type KeyAccess,
  TEST_KEY_PREFIX,
} from '@app/common';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKeysRepository, type KeyRow, type TeamKindRow } from './api-keys.repository.js';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-secret.js';

/** The refusal to roll a key rolled already. */
export const ALREADY_ROLLED = 'This key was rolled already: roll the key that replaced it';

/**
 * How many characters of a key the dashboard and the CLI show to tell keys apart (CONTRACT: the first 12): `ppk_`
 * and 8 of the secret, or `ppk_test_` and 3.
 */
export const KEY_PREFIX_LENGTH = 12;

/** The name of the key a new team is created with. */
export const FIRST_KEY_NAME = 'default';

export interface CreatedKey {
  teamId: string;
  apiKeyId: string;
  apiKey: string;
  /** A test key's: the sandbox it reaches (its records carry this `teamId`), while `teamId` is the live team's. */
  sandboxTeamId?: string;
}

export interface KeyOptions {
  access?: KeyAccess;
  /** When the key stops working; null or omitted: never. */
  expiresAt?: Date | null;
  /** A test key (`ppk_test_…`) of the team's sandbox, which is created on first use. */
  test?: boolean;
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
    private readonly keys: ApiKeysRepository,
    private readonly transactions: Transactions,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async createTeam(name: string): Promise<CreatedKey> {
    return this.transactions.run(async (manager) => {
      const teamId = randomUUID();
      await this.keys.insertTeam(teamId, name, manager);
      return this.insertKey(manager, teamId, FIRST_KEY_NAME, {});
    });
  }

  /**
   * A key of the team. With `test`, a test key of its sandbox (created on first use); the answer still names the
   * live `teamId` it was asked for, and the sandbox as `sandboxTeamId`. A key made for a sandbox's own id is always
   * a test key: a sandbox has no live keys.
   */
  async createKey(teamId: string, name: string | null, options: KeyOptions = {}): Promise<CreatedKey> {
    const team = await this.requireTeam(teamId);
    if (team.live_team_id !== null) {
      const created = await this.insertKey(undefined, teamId, name, { ...options, test: true });
      return { ...created, teamId: team.live_team_id, sandboxTeamId: teamId };
    }
    if (!options.test) return this.insertKey(undefined, teamId, name, options);
    const sandboxTeamId = await this.sandboxOf(teamId);
    const created = await this.insertKey(undefined, sandboxTeamId, name, options);
    return { ...created, teamId, sandboxTeamId };
  }

  /**
   * The id of the team's sandbox, created on its first use (CONTRACT "Test mode (sandbox)"); a sandbox's own id is
   * answered with itself. A team that does not exist is `RecordNotFoundError`.
   */
  async sandboxOf(teamId: string): Promise<string> {
    const team = await this.requireTeam(teamId);
    if (team.live_team_id !== null) return team.id;
    const sandbox = await this.keys.sandboxOf(teamId);
    if (!sandbox) throw new RecordNotFoundError('Team');
    return sandbox;
  }

  /**
   * Every team with its keys counted two ways: `liveKeys` (neither revoked nor expired: the keys that work now)
   * and `totalKeys` (every key ever made for it).
   */
  async listTeams(): Promise<
    Array<{ teamId: string; name: string; createdAt: string; liveKeys: number; totalKeys: number }>
  > {
    const rows = await this.keys.listTeams(new Date(this.clock.now()));
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
    const rows = await this.keys.listKeys(teamId);
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
   * Rolls a key: a new key with the same name, access and expiry replaces it (a key rolled already is refused,
   * `ALREADY_ROLLED`: its replacement is the one to roll); the old one keeps working for
   * `graceMs` (0: revoked at once), then stops on every instance. A revoked or expired key cannot be rolled.
   */
  async roll(teamId: string, apiKeyId: string, graceMs: number): Promise<CreatedKey> {
    const now = this.clock.now();
    const { created, oldHash } = await this.transactions.run(async (manager) => {
      const old = await this.keys.lockUnrevoked(teamId, apiKeyId, manager);
      if (!old || (old.expires_at && old.expires_at.getTime() <= now)) throw new RecordNotFoundError('API key');
      // Rolled already, its expiry is the end of its grace: a second roll would hand that to the new key (which
      // would stop within the grace), and two keys would replace one. The key that replaced it is the one to roll.
      if (old.replaced_by) throw new ConflictError(ALREADY_ROLLED);
      const created = await this.insertKey(manager, teamId, old.name, {
        access: old.access,
        expiresAt: old.expires_at,
        test: old.prefix?.startsWith(TEST_KEY_PREFIX) ?? false,
      });
      const end =
        graceMs <= 0 ? null : new Date(Math.min(now + graceMs, old.expires_at?.getTime() ?? Number.POSITIVE_INFINITY));
      await this.keys.replace(teamId, apiKeyId, created.apiKeyId, end, manager);
      return { created, oldHash: old.key_hash };
    });
    this.cache.forget(oldHash);
    return created;
  }

  /** The dashboard: a key of the team, scoped like every team's query (another team's key is missing). */
  private revokeOwn(teamId: string, apiKeyId: string): Promise<KeyRow | undefined> {
    return this.keys.revokeOwn(teamId, apiKeyId);
  }

  /** The operator's CLI: any key by its id, the one write here that is not scoped by team. */
  private revokeAny(apiKeyId: string): Promise<KeyRow | undefined> {
    return this.keys.revokeAny(apiKeyId);
  }

  countTeams(): Promise<number> {
    return this.keys.countTeams();
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
    const row = await this.keys.findByHash(hash);
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
      testMode: token.startsWith(TEST_KEY_PREFIX),
    };
    // An expired key is cached too: it is refused from memory until the entry ages out.
    this.cache.set(hash, caller, snapshot, Date.now());
    return keyIsLive(caller, this.clock.now()) ? { caller, lookedUp: true, deferred: false } : LOOKED_UP_NOTHING;
  }

  private async requireTeam(teamId: string): Promise<TeamKindRow> {
    const team = await this.keys.findTeam(teamId);
    if (!team) throw new RecordNotFoundError('Team');
    return team;
  }

  private async insertKey(
    manager: EntityManager | undefined,
    teamId: string,
    name: string | null,
    { access = 'read_write', expiresAt = null, test = false }: KeyOptions,
  ): Promise<CreatedKey> {
    const apiKey = generateApiKey(test);
    const id = randomUUID();
    await this.keys.insertKey(
      teamId,
      { id, name, keyHash: hashApiKey(apiKey), prefix: apiKey.slice(0, KEY_PREFIX_LENGTH), access, expiresAt },
      manager,
    );
    return { teamId, apiKeyId: id, apiKey };
  }
}
