import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { HttpError } from './http.js';
import type { KeyCache } from './key-cache.js';
import { named } from './statements.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const API_KEY_PATTERN = /^ppk_[0-9A-Za-z]{32,128}$/;
const LAST_USED_RESOLUTION_MS = 60_000;

export interface Caller {
  teamId: string;
  apiKeyId: string;
}

/**
 * Bearer key → SHA-256 → a live `api_keys` row; with the service's key cache (same invalidation, same
 * confirmation round trip), so the floor is denied nothing the service does.
 */
export class Authenticator {
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly cache: KeyCache,
  ) {}

  async authenticate(request: IncomingMessage): Promise<Caller> {
    const header = request.headers.authorization;
    if (!header) throw new HttpError(401, 'Missing API key: send Authorization: Bearer <key>');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new HttpError(401, 'Malformed Authorization header: expected Bearer <key>');
    if (API_KEY_PATTERN.test(token)) {
      const keyHash = hash('sha256', token, 'hex');
      const cached = await this.cache.get(keyHash);
      if (cached) {
        this.touch(cached.apiKeyId);
        return cached;
      }
      const { rows } = await named<{ team_id: string; id: string }>(
        this.pool,
        'SELECT team_id, id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [keyHash],
      );
      if (rows[0]) {
        this.touch(rows[0].id);
        const caller = { teamId: rows[0].team_id, apiKeyId: rows[0].id };
        this.cache.set(keyHash, caller);
        return caller;
      }
    }
    throw new HttpError(401, 'Invalid or revoked API key');
  }

  /** `last_used_at`, written at most once a minute per key, as the service does. */
  private touch(apiKeyId: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(apiKeyId, now);
    named(this.pool, 'UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]).catch(() => undefined);
  }
}
