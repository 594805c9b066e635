import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeyCache, ApiKeysService, hashApiKey } from '../apps/api/src/api-keys/index.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Keys are cached per instance; a trigger announces revocations (LISTEN/NOTIFY) and the cache is only used
// while the instance listens. These tests make each part visible.

/** Reads until the instance answers this key from its cache (the listener connects lazily, then fills it). */
async function warm(sut: TestApp, key: { apiKey: string }): Promise<void> {
  const cache = sut.app.get(ApiKeyCache, { strict: false });
  for (let i = 0; i < 200; i++) {
    const response = await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(key));
    expect(response.status).toBe(200);
    if (cache.holds(hashApiKey(key.apiKey))) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the key never reached the cache');
}

describe('API key cache', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const read = (key: { apiKey: string }) =>
    sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(key));

  it('serves a known key from the cache (a revocation nobody announces goes unseen)', async () => {
    const team = await sut.createTeam();
    await warm(sut, team);
    await sut.sql('ALTER TABLE api_keys DISABLE TRIGGER api_keys_notify_revoked');
    try {
      await sut.sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [team.apiKeyId]);
      expect((await read(team)).status).toBe(200);
    } finally {
      await sut.sql('ALTER TABLE api_keys ENABLE TRIGGER api_keys_notify_revoked');
    }
  });

  it('drops a key revoked by plain SQL on the very next request (the trigger announces it)', async () => {
    const team = await sut.createTeam();
    await warm(sut, team);
    await sut.sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [team.apiKeyId]);
    const response = await read(team);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  it('stops using the cache when the listener connection is lost', async () => {
    const team = await sut.createTeam();
    await warm(sut, team);
    await sut.sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'property-portfolio-api:keys'`,
    );
    await sut.sql('ALTER TABLE api_keys DISABLE TRIGGER api_keys_notify_revoked');
    try {
      // Unannounced, yet refused: without a listener every request reads the database.
      await sut.sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [team.apiKeyId]);
      expect((await read(team)).status).toBe(401);
    } finally {
      await sut.sql('ALTER TABLE api_keys ENABLE TRIGGER api_keys_notify_revoked');
    }
  });
});

describe('API key cache on two instances of one database', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ databaseUrl: first.databaseUrl });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const read = (sut: TestApp, key: { apiKey: string }) =>
    sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(key));

  it('refuses a key revoked by plain SQL on the very next request to either instance, every time', async () => {
    const team = await first.createTeam();
    const keys = first.app.get(ApiKeysService);
    for (let round = 0; round < 50; round++) {
      const key = await keys.createKey(team.teamId, `round ${round}`);
      await warm(first, key);
      await warm(second, key);
      await first.sql('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.apiKeyId]);
      const [onFirst, onSecond] = await Promise.all([read(first, key), read(second, key)]);
      expect({ round, first: onFirst.status, second: onSecond.status }).toEqual({ round, first: 401, second: 401 });
    }
  });
});
