import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@app/common';
import { ApiKeyCache, ApiKeysService, hashApiKey, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { WebhookDispatcher } from '../apps/api/src/webhooks/index.js';
import { deleteRateLimitKeys, pingRedis, redisSuitesRun, requireRedis, TEST_REDIS_URL } from './support/redis.js';
import { bearer, createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';

// Three instances of the service behind an imaginary balancer, on one PostgreSQL and one Redis (the scale-out
// design, docs/scale-out.md): one shared limit, a key change refused by all three on the very next request, and
// webhook deliveries shared without ever sending one twice.

jest.setTimeout(120_000);

const redisUp = await pingRedis(TEST_REDIS_URL);
const START = Date.UTC(2030, 0, 1);

(redisSuitesRun(redisUp, 'three instances on one Redis') ? describe : describe.skip)('three instances', () => {
  const clock = new ManualClock(START);
  const keys: CreatedKey[] = [];
  let databaseUrl: string;
  let instances: TestApp[] = [];

  beforeAll(async () => {
    requireRedis(redisUp);
    databaseUrl = await createTestDatabase();
    const config = {
      RATE_LIMIT_PER_MINUTE: 200,
      RATE_LIMIT_WRITES_PER_MINUTE: 30,
      REDIS_URL: TEST_REDIS_URL,
      WEBHOOKS_ALLOW_HTTP: true,
      WEBHOOKS_ALLOW_PRIVATE: true,
      WEBHOOK_POLL_INTERVAL_MS: 50,
    };
    instances = [];
    for (let i = 0; i < 3; i++) instances.push(await createTestApp({ clock, config, databaseUrl }));
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    await deleteRateLimitKeys(keys.map((key) => key.apiKeyId));
  });

  async function team(name: string): Promise<CreatedKey> {
    const created = await instances[0].createTeam(name);
    keys.push(created);
    return created;
  }

  const read = (instance: TestApp, key: { apiKey: string }) =>
    instance
      .http()
      .get('/v1/units')
      .set(...bearer(key));

  /** Until each instance has the key in its cache, so every refusal below comes from the cache path. */
  async function cachedEverywhere(key: { apiKey: string }): Promise<void> {
    for (const instance of instances) {
      for (let attempt = 0; !instance.app.get(ApiKeyCache).holds(hashApiKey(key.apiKey)); attempt++) {
        if (attempt === 200) throw new Error('the key never reached the cache');
        await read(instance, key);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }

  it('share one writes limit exactly: 30 writes over the three, round robin, then 429 on every instance', async () => {
    clock.set(START);
    const key = await team('Shared limit team');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await instances[i % 3]
        .http()
        .post('/v1/landlords')
        .set(...bearer(key))
        .send({ name: `Landlord ${i}` });
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(30).fill(201));
    for (const instance of instances) {
      const refused = await instance
        .http()
        .post('/v1/landlords')
        .set(...bearer(key))
        .send({ name: 'One too many' });
      expect(refused.status).toBe(429);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    }
    // The window slides: a minute later the writes are free again, on any instance.
    clock.advance(60_000);
    await instances[2]
      .http()
      .post('/v1/landlords')
      .set(...bearer(key))
      .send({ name: 'A minute later' })
      .expect(201);
  });

  it('refuse a revoked, an expired and a rolled key on the very next request, on all three', async () => {
    clock.set(START + 3_600_000);
    const keysService = instances[0].app.get(ApiKeysService);

    const revoked = await team('Revoked key team');
    await cachedEverywhere(revoked);
    await instances[1].app.get(ApiKeysService).revoke(revoked.apiKeyId);
    for (const instance of instances) expect((await read(instance, revoked)).status).toBe(401);

    const expiring = await keysService.createKey(revoked.teamId, 'expiring', {
      expiresAt: new Date(clock.now() + 60_000),
    });
    keys.push(expiring);
    await cachedEverywhere(expiring);
    clock.advance(60_000);
    for (const instance of instances) expect((await read(instance, expiring)).status).toBe(401);

    const rolled = await keysService.createKey(revoked.teamId, 'rolled');
    keys.push(rolled);
    await cachedEverywhere(rolled);
    const replacement = await instances[2].app.get(ApiKeysService).roll(revoked.teamId, rolled.apiKeyId, 0);
    keys.push(replacement);
    for (const instance of instances) {
      expect((await read(instance, rolled)).status).toBe(401);
      expect((await read(instance, replacement)).status).toBe(200);
    }
  });

  it('share webhook deliveries: every event sent once, whichever instance wrote it', async () => {
    clock.set(START + 7_200_000);
    const receipts: string[] = [];
    const receiver = createServer((request, response) => {
      receipts.push(String(request.headers['webhook-id']));
      request.resume();
      request.on('end', () => response.end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const owner = await team('Webhooks team');
      await instances[0]
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(owner))
        .send({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` })
        .expect(201);
      for (let i = 0; i < 24; i++) {
        await instances[i % 3]
          .http()
          .post('/v1/tenants')
          .set(...bearer(owner))
          .send({ firstName: 'Tenant', lastName: `Number ${i}` })
          .expect(201);
      }
      for (let waited = 0; receipts.length < 24; waited += 25) {
        if (waited > 20_000) throw new Error(`only ${receipts.length} of 24 deliveries arrived`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receipts).toHaveLength(24);
      expect(new Set(receipts).size).toBe(24);
      const sent = instances.reduce((sum, instance) => sum + instance.app.get(WebhookDispatcher).sent, 0);
      expect(sent).toBe(24);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
