import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '@app/common';
import { ApiKeyCache, ApiKeysService, hashApiKey, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { bearer, createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';

// Read-only keys, expiry and rolling (CONTRACT "Key access"), on two instances of the service sharing one
// database: each caches keys, so every rule must hold from the cache too, on the very next request.

const HOUR = 3_600_000;

describe('API key access, expiry and rolling', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let databaseUrl: string;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    first = await createTestApp({ clock, databaseUrl });
    second = await createTestApp({ clock, databaseUrl });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await dropTestDatabase(databaseUrl);
  });

  const keys = () => first.app.get(ApiKeysService);
  const read = (sut: TestApp, key: { apiKey: string }) =>
    sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(key));

  /** Until the key sits in both instances' caches (each listens lazily), so the rules are checked from memory. */
  async function cachedEverywhere(key: { apiKey: string }): Promise<void> {
    for (const sut of [first, second]) {
      const cache = sut.app.get(ApiKeyCache);
      for (let attempt = 0; !cache.holds(hashApiKey(key.apiKey)); attempt++) {
        if (attempt === 100) throw new Error('the key never reached the cache');
        expect((await read(sut, key)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }

  async function statusOn(key: { apiKey: string }): Promise<[number, number]> {
    return [(await read(first, key)).status, (await read(second, key)).status];
  }

  describe('a read-only key', () => {
    let team: CreatedKey;
    let readOnly: CreatedKey;
    let landlordId: string;

    beforeAll(async () => {
      team = await first.createTeam('Read-only team');
      readOnly = await keys().createKey(team.teamId, 'Reporting', { access: 'read_only' });
      const created = await first
        .http()
        .post('/v1/landlords')
        .set(...bearer(team))
        .send({ name: 'Harriet Cole' })
        .expect(201);
      landlordId = (created.body as { data: { id: string } }).data.id;
    });

    it('reads like any key', async () => {
      const response = await read(first, readOnly).expect(200);
      expect((response.body as { data: unknown[] }).data).toHaveLength(1);
    });

    it.each([
      ['POST', '/v1/landlords', { name: 'Never stored' }],
      ['POST', '/v1/landlords', { name: 42, unknown: true }],
      ['PUT', '/v1/landlords/{id}', { name: 'Never renamed' }],
      ['DELETE', '/v1/landlords/{id}', undefined],
    ])('answers %s %s with 403 before validating anything, and changes nothing', async (method, path, body) => {
      const before = await first.sql('SELECT id, name, updated_at FROM landlords WHERE team_id = $1', [team.teamId]);
      const url = path.replace('{id}', landlordId);
      const call =
        method === 'POST'
          ? first.http().post(url)
          : method === 'PUT'
            ? first.http().put(url)
            : first.http().delete(url);
      const response = await call.set(...bearer(readOnly)).send(body);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: 'This API key is read-only' });
      // Authenticated and counted like any write: the headers of the writes limit are there.
      expect(response.headers['x-ratelimit-remaining']).toBeDefined();
      const after = await first.sql('SELECT id, name, updated_at FROM landlords WHERE team_id = $1', [team.teamId]);
      expect(after).toEqual(before);
    });

    it('is read-only on every instance, from the cache too', async () => {
      await cachedEverywhere(readOnly);
      for (const sut of [first, second]) {
        await sut
          .http()
          .post('/v1/landlords')
          .set(...bearer(readOnly))
          .send({ name: 'Still refused' })
          .expect(403);
      }
    });

    it('a key turned read-only by SQL is read-only on the very next request, on every instance', async () => {
      const key = await keys().createKey(team.teamId, 'Downgraded');
      await cachedEverywhere(key);
      await first.sql(`UPDATE api_keys SET access = 'read_only' WHERE id = $1`, [key.apiKeyId]);
      for (const sut of [first, second]) {
        await sut
          .http()
          .delete(`/v1/landlords/${landlordId}`)
          .set(...bearer(key))
          .expect(403);
      }
    });
  });

  describe('expiry', () => {
    it('a key works until its expiry and is refused from that instant, on every instance', async () => {
      const team = await first.createTeam('Expiring team');
      const key = await keys().createKey(team.teamId, 'Short-lived', { expiresAt: new Date(clock.now() + HOUR) });
      await cachedEverywhere(key);
      clock.advance(HOUR - 1);
      expect(await statusOn(key)).toEqual([200, 200]);
      clock.advance(1);
      expect(await statusOn(key)).toEqual([401, 401]);
      expect((await read(first, key)).body).toEqual({ error: 'Invalid or revoked API key' });
    });

    it('an expiry set by SQL (an operator, another instance) is heard by every instance at once', async () => {
      const team = await first.createTeam('Operator team');
      await cachedEverywhere(team);
      await first.sql('UPDATE api_keys SET expires_at = $2 WHERE id = $1', [team.apiKeyId, new Date(clock.now())]);
      expect(await statusOn(team)).toEqual([401, 401]);
    });
  });

  describe('rolling', () => {
    it('keeps the old key working for the grace period on every instance, then only the new one', async () => {
      const team = await first.createTeam('Rolling team');
      await cachedEverywhere(team);
      const rolled = await keys().roll(team.teamId, team.apiKeyId, HOUR);
      expect(rolled.apiKey).not.toBe(team.apiKey);
      expect(await statusOn(team)).toEqual([200, 200]);
      expect(await statusOn(rolled)).toEqual([200, 200]);

      clock.advance(HOUR);
      expect(await statusOn(team)).toEqual([401, 401]);
      expect(await statusOn(rolled)).toEqual([200, 200]);

      const [old] = await first.sql<{ replaced_by: string; name: string; access: string }>(
        'SELECT replaced_by, name, access FROM api_keys WHERE id = $1',
        [team.apiKeyId],
      );
      expect(old).toEqual({ replaced_by: rolled.apiKeyId, name: 'default', access: 'read_write' });
    });

    it('with no grace, the old key is refused on the very next request on every instance', async () => {
      const team = await first.createTeam('Rolling now team');
      await cachedEverywhere(team);
      const rolled = await keys().roll(team.teamId, team.apiKeyId, 0);
      expect(await statusOn(team)).toEqual([401, 401]);
      expect(await statusOn(rolled)).toEqual([200, 200]);
    });

    it('keeps a read-only key read-only, and refuses to roll a revoked key or another team’s key', async () => {
      const team = await first.createTeam('Roll rules team');
      const other = await first.createTeam('Other team');
      const readOnly = await keys().createKey(team.teamId, 'Reports', { access: 'read_only' });
      const rolled = await keys().roll(team.teamId, readOnly.apiKeyId, HOUR);
      await first
        .http()
        .post('/v1/landlords')
        .set(...bearer(rolled))
        .send({ name: 'Refused' })
        .expect(403);
      await expect(keys().roll(other.teamId, team.apiKeyId, HOUR)).rejects.toThrow('API key not found');
      // Rolled already: its replacement is the one to roll (a second roll would hand the grace end to a new key).
      await expect(keys().roll(team.teamId, readOnly.apiKeyId, HOUR)).rejects.toThrow(
        'This key was rolled already: roll the key that replaced it',
      );
      const again = await keys().roll(team.teamId, rolled.apiKeyId, HOUR);
      expect(again.apiKeyId).not.toBe(rolled.apiKeyId);
      await keys().revoke(team.apiKeyId, team.teamId);
      await expect(keys().roll(team.teamId, team.apiKeyId, HOUR)).rejects.toThrow('API key not found');
      await expect(keys().revoke(team.apiKeyId, other.teamId)).rejects.toThrow('API key not found');
    });
  });
});
