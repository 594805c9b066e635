import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { RecordNotFoundError } from '../errors/domain-errors.js';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKey } from './api-key.entity.js';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-secret.js';
import { Team } from './team.entity.js';
import type { Caller } from './caller.js';

export type { Caller } from './caller.js';

export interface CreatedKey {
  teamId: string;
  apiKeyId: string;
  apiKey: string;
}

export interface KeyListing {
  apiKeyId: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** How often `last_used_at` is written for one key, at most. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeysService {
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: ApiKeyCache,
  ) {}

  async createTeam(name: string): Promise<CreatedKey> {
    return this.db.transaction(async (manager) => {
      const teamId = randomUUID();
      await manager.getRepository(Team).insert({ id: teamId, name });
      return this.insertKey(manager.getRepository(ApiKey), teamId, 'default');
    });
  }

  async createKey(teamId: string, name: string | null): Promise<CreatedKey> {
    const team = await this.db.getRepository(Team).findOneBy({ id: teamId });
    if (!team) throw new RecordNotFoundError('Team');
    return this.insertKey(this.db.getRepository(ApiKey), teamId, name);
  }

  async listKeys(teamId: string): Promise<KeyListing[]> {
    const team = await this.db.getRepository(Team).findOneBy({ id: teamId });
    if (!team) throw new RecordNotFoundError('Team');
    const keys = await this.db
      .getRepository(ApiKey)
      .find({ where: { teamId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return keys.map((key) => ({
      apiKeyId: key.id,
      name: key.name,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes a key; idempotent. Throws when there is no such key. */
  async revoke(apiKeyId: string): Promise<{ apiKeyId: string; revokedAt: string }> {
    const repository = this.db.getRepository(ApiKey);
    await repository.update({ id: apiKeyId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    const key = await repository.findOneBy({ id: apiKeyId });
    if (!key || !key.revokedAt) throw new RecordNotFoundError('API key');
    this.cache.forget(key.keyHash);
    return { apiKeyId: key.id, revokedAt: key.revokedAt.toISOString() };
  }

  async countTeams(): Promise<number> {
    return this.db.getRepository(Team).count();
  }

  /** The caller behind a bearer token, or undefined when the token is malformed, unknown or revoked. */
  async authenticate(token: string): Promise<Caller | undefined> {
    if (!API_KEY_PATTERN.test(token)) return undefined;
    const hash = hashApiKey(token);
    const now = Date.now();
    const cached = await this.cache.get(hash, now);
    if (cached) {
      this.touch(cached.apiKeyId);
      return cached;
    }
    const snapshot = this.cache.snapshot();
    const rows: Array<{ team_id: string; id: string }> = await this.db.query(
      'SELECT team_id, id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    const row = rows[0];
    if (!row) return undefined;
    const caller = { teamId: row.team_id, apiKeyId: row.id };
    this.cache.set(hash, caller, snapshot, now);
    this.touch(caller.apiKeyId);
    return caller;
  }

  /** Records use without a write per request: at most one update per key per minute per process. */
  private touch(apiKeyId: string): void {
    const now = Date.now();
    const last = this.lastUsedWrites.get(apiKeyId) ?? 0;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(apiKeyId, now);
    this.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]).catch(() => undefined);
  }

  private async insertKey(repository: Repository<ApiKey>, teamId: string, name: string | null): Promise<CreatedKey> {
    const apiKey = generateApiKey();
    const id = randomUUID();
    await repository.insert({ teamId, id, name, keyHash: hashApiKey(apiKey) });
    return { teamId, apiKeyId: id, apiKey };
  }
}
