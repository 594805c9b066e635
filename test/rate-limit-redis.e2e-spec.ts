import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { ManualClock } from '@app/common';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { contractorInput, countContractors } from './factories/contractors.js';
import { describeRateLimits, expectRateLimited, rateHeaders, resetOf, START } from './rate-limit.suite.js';
import { deleteRateLimitKeys, pingRedis, redisSuitesRun, requireRedis, TEST_REDIS_URL } from './support/redis.js';
import { bearer, createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';

// Decided before any test is declared (top-level await), so a missing Redis skips or fails whole suites.
const redisUp = await pingRedis(TEST_REDIS_URL);

// Redis is optional on a developer's machine: without it these suites are skipped with a loud warning.
// CI has Redis, so with CI set they run, and fail, rather than quietly dropping the shared-limit proofs.
(redisSuitesRun(redisUp, 'rate limits against Redis') ? describe : describe.skip)('with REDIS_URL', () => {
  beforeAll(() => requireRedis(redisUp));

  describeRateLimits(TEST_REDIS_URL);

  describe('two instances on one Redis', () => {
    const clock = new ManualClock(START);
    const keys: CreatedKey[] = [];
    let databaseUrl: string | undefined;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      const config = { RATE_LIMIT_PER_MINUTE: 200, RATE_LIMIT_WRITES_PER_MINUTE: 30, REDIS_URL: TEST_REDIS_URL };
      first = await createTestApp({ clock, config, databaseUrl });
      second = await createTestApp({ clock, config, databaseUrl });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
      // Neither app owns a database it was handed: the spec that made it drops it.
      if (databaseUrl) await dropTestDatabase(databaseUrl);
      await deleteRateLimitKeys(keys.map((key) => key.apiKeyId));
    });

    async function freshKey(): Promise<CreatedKey> {
      clock.advance(10 * 60_000);
      const key = await first.createTeam();
      keys.push(key);
      return key;
    }
    const write = (sut: TestApp, key: CreatedKey) =>
      sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(key))
        .send(contractorInput());
    const read = (sut: TestApp, key: CreatedKey) =>
      sut
        .http()
        .get('/v1/contractors')
        .query({ pageSize: 1 })
        .set(...bearer(key));

    it('enforce one write limit: alternating between them, the 31st write is refused on either', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      const responses: Response[] = [];
      for (let i = 0; i < 30; i++) responses.push(await write(i % 2 === 0 ? first : second, key));
      expect(responses.map((response) => [response.status, rateHeaders(response)?.remaining])).toEqual(
        Array.from({ length: 30 }, (_, i) => [201, 29 - i]),
      );
      expectRateLimited(await write(first, key), { limit: 30, remaining: 0, reset: resetOf(t0) });
      expectRateLimited(await write(second, key), { limit: 30, remaining: 0, reset: resetOf(t0) });
      expect(await countContractors(first, key.teamId)).toBe(30);
    });

    it('enforce one request limit: the 201st request, whichever instance it reaches, is refused', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      for (let i = 0; i < 200; i++) {
        const response = await read(i % 2 === 0 ? first : second, key);
        expect([response.status, rateHeaders(response)?.remaining]).toEqual([200, 199 - i]);
      }
      expect(expectRateLimited(await read(second, key), { limit: 200, remaining: 0, reset: resetOf(t0) })).toBe(60);
      expect(expectRateLimited(await read(first, key), { limit: 200, remaining: 0, reset: resetOf(t0) })).toBe(60);
      // Either instance sees the window slide at the same moment.
      clock.set(t0 + 60_000);
      expect(rateHeaders(await read(second, key))).toEqual({ limit: 200, remaining: 199, reset: resetOf(t0 + 60_000) });
    });

    it('count concurrent requests atomically: 40 parallel writes against a limit of 30 give exactly 30 successes', async () => {
      const key = await freshKey();
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => write(i % 2 === 0 ? first : second, key)),
      );
      const created = responses.filter((response) => response.status === 201);
      const refused = responses.filter((response) => response.status === 429);
      expect({ created: created.length, refused: refused.length }).toEqual({ created: 30, refused: 10 });
      // Each success saw a different count: no two were counted as the same slot.
      expect(created.map((response) => rateHeaders(response)?.remaining).sort((a = 0, b = 0) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i),
      );
      for (const response of refused) expect(response.body).toEqual({ error: 'Rate limit exceeded' });
      expect(await countContractors(first, key.teamId)).toBe(30);
    });
  });
});
