import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { ManualClock } from '@app/common';
import { ApiKeysService, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { contractorInput, countContractors } from './factories/contractors.js';
import { deleteRateLimitKeys } from './support/redis.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

/** A start that is not on a whole second, so that rounding Reset and Retry-After up (not down) shows. */
export const START = Date.UTC(2030, 0, 1, 0, 0, 0, 250);
export const WINDOW_MS = 60_000;

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

/** The X-RateLimit-* headers as numbers, or undefined when the response has none of them. */
export function rateHeaders(response: Response): RateHeaders | undefined {
  const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const values = names.map((name) => response.headers[name] as string | undefined);
  if (values.every((value) => value === undefined)) return undefined;
  const [limit, remaining, reset] = values.map((value) =>
    value !== undefined && /^\d+$/.test(value) ? Number(value) : NaN,
  );
  return { limit, remaining, reset };
}

/** The Unix second at which a request made at `at` leaves the window. */
export const resetOf = (at: number): number => Math.ceil((at + WINDOW_MS) / 1000);

/** Exactly the 429 of the contract; returns Retry-After in seconds. */
export function expectRateLimited(response: Response, expected: RateHeaders): number {
  expect({ status: response.status, body: response.body, headers: rateHeaders(response) }).toEqual({
    status: 429,
    body: { error: 'Rate limit exceeded' },
    headers: expected,
  });
  const retryAfter = response.headers['retry-after'] as string | undefined;
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}

/**
 * The contract's rate-limit behaviour with the default limits (200 requests, 30 writes per sliding minute),
 * against the store REDIS_URL selects (memory when undefined). Time comes from a ManualClock.
 */
export function describeRateLimits(redisUrl: string | undefined): void {
  describe(`rate limits (${redisUrl ? 'Redis' : 'memory'} store)`, () => {
    const clock = new ManualClock(START);
    const keys: CreatedKey[] = [];
    let sut: TestApp;

    beforeAll(async () => {
      sut = await createTestApp({
        clock,
        config: { RATE_LIMIT_PER_MINUTE: 200, RATE_LIMIT_WRITES_PER_MINUTE: 30, REDIS_URL: redisUrl },
      });
    });
    afterAll(async () => {
      // The app first: its Redis client must not outlive the test even when the clean-up cannot connect.
      await sut?.close();
      if (redisUrl)
        await deleteRateLimitKeys(
          keys.map((key) => key.apiKeyId),
          redisUrl,
        );
    });

    /** A new team's key; each test starts from an empty window and a clock moved past every earlier test. */
    async function freshKey(): Promise<CreatedKey> {
      clock.advance(10 * WINDOW_MS);
      const key = await sut.createTeam();
      keys.push(key);
      return key;
    }
    const read = (key: CreatedKey) =>
      sut
        .http()
        .get('/v1/contractors')
        .query({ pageSize: 1 })
        .set(...bearer(key));
    const write = (key: CreatedKey) =>
      sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(key))
        .send(contractorInput());

    async function writes(key: CreatedKey, count: number): Promise<Response[]> {
      const responses: Response[] = [];
      for (let i = 0; i < count; i++) responses.push(await write(key));
      expect(responses.map((response) => response.status)).toEqual(Array(count).fill(201));
      return responses;
    }
    async function reads(key: CreatedKey, count: number): Promise<Response[]> {
      const responses: Response[] = [];
      for (let i = 0; i < count; i++) responses.push(await read(key));
      expect(responses.map((response) => response.status)).toEqual(Array(count).fill(200));
      return responses;
    }

    it("a fresh key's first read shows the requests window: Limit 200, Remaining 199, Reset one window ahead", async () => {
      const key = await freshKey();
      const t0 = clock.now();
      const first = await read(key);
      expect({ status: first.status, headers: rateHeaders(first) }).toEqual({
        status: 200,
        headers: { limit: 200, remaining: 199, reset: resetOf(t0) },
      });
      clock.advance(1_500);
      // Reset stays at the oldest counted request's exit, not one window after the latest.
      expect(rateHeaders(await read(key))).toEqual({ limit: 200, remaining: 198, reset: resetOf(t0) });
    });

    it('a write shows the writes window, which has fewer left; the requests window counts it too', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      const created = await write(key);
      expect({ status: created.status, headers: rateHeaders(created) }).toEqual({
        status: 201,
        headers: { limit: 30, remaining: 29, reset: resetOf(t0) },
      });
      expect(rateHeaders(await read(key))).toEqual({ limit: 200, remaining: 198, reset: resetOf(t0) });
    });

    it('refused and failed requests (400, 404) carry the headers and count like any other', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      const missing = await sut
        .http()
        .get(`/v1/contractors/${randomUUID()}`)
        .set(...bearer(key));
      expect({ status: missing.status, headers: rateHeaders(missing) }).toEqual({
        status: 404,
        headers: { limit: 200, remaining: 199, reset: resetOf(t0) },
      });
      const badId = await sut
        .http()
        .get('/v1/contractors/not-a-uuid')
        .set(...bearer(key));
      expect({ status: badId.status, headers: rateHeaders(badId) }).toEqual({
        status: 400,
        headers: { limit: 200, remaining: 198, reset: resetOf(t0) },
      });
      const invalid = await sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(key))
        .send({});
      expect({ status: invalid.status, headers: rateHeaders(invalid) }).toEqual({
        status: 400,
        headers: { limit: 30, remaining: 29, reset: resetOf(t0) },
      });
      const updateMissing = await sut
        .http()
        .put(`/v1/contractors/${randomUUID()}`)
        .set(...bearer(key))
        .send({ notes: 'x' });
      expect({ status: updateMissing.status, headers: rateHeaders(updateMissing) }).toEqual({
        status: 404,
        headers: { limit: 30, remaining: 28, reset: resetOf(t0) },
      });
    });

    it('unauthenticated requests get 401 without rate-limit headers and use up nothing', async () => {
      const key = await freshKey();
      const anonymous = await sut.http().get('/v1/contractors');
      const unknownKey = await sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(`ppk_${'a'.repeat(40)}`));
      const malformed = await sut
        .http()
        .post('/v1/contractors')
        .set('Authorization', 'Basic abc')
        .send(contractorInput());
      for (const response of [anonymous, unknownKey, malformed]) {
        expect({
          status: response.status,
          headers: rateHeaders(response),
          retryAfter: response.headers['retry-after'],
        }).toEqual({
          status: 401,
          headers: undefined,
          retryAfter: undefined,
        });
      }
      expect(rateHeaders(await read(key))).toMatchObject({ remaining: 199 });
    });

    it('health routes are neither limited nor counted, even when sent with a key', async () => {
      const key = await freshKey();
      const statuses: number[] = [];
      for (let i = 0; i < 201; i++) {
        const response = await sut
          .http()
          .get(i % 2 === 0 ? '/health' : '/health/ready')
          .set(...bearer(key));
        expect(rateHeaders(response)).toBeUndefined();
        statuses.push(response.status);
      }
      expect(statuses).toEqual(Array(201).fill(200));
      expect(rateHeaders(await read(key))).toMatchObject({ limit: 200, remaining: 199 });
    });

    it('refuses the 31st write within 60 s with 429, Retry-After until the oldest write leaves, and Remaining 0', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      await writes(key, 1);
      clock.advance(10_500);
      const later = await writes(key, 29);
      expect(rateHeaders(later[28])).toEqual({ limit: 30, remaining: 0, reset: resetOf(t0) });

      // The oldest write leaves at t0 + 60 s, 49.5 s from now: rounded up to 50.
      expect(expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0) })).toBe(50);
      expect(await countContractors(sut, key.teamId)).toBe(30);
    });

    it('counts PUTs as writes: 30 updates pass, the 31st is refused with 429 and changes nothing', async () => {
      const key = await freshKey();
      const created = (await writes(key, 1))[0].body.data as { id: string };
      // The create leaves the window first, so only the PUTs are counted below.
      clock.advance(WINDOW_MS);
      const t0 = clock.now();
      const update = (notes: string) =>
        sut
          .http()
          .put(`/v1/contractors/${created.id}`)
          .set(...bearer(key))
          .send({ notes });
      const responses: Response[] = [];
      for (let i = 1; i <= 30; i++) responses.push(await update(`update ${i}`));
      expect(responses.map((response) => [response.status, rateHeaders(response)?.remaining])).toEqual(
        Array.from({ length: 30 }, (_, i) => [200, 29 - i]),
      );
      expect(expectRateLimited(await update('update 31'), { limit: 30, remaining: 0, reset: resetOf(t0) })).toBe(60);
      const stored = await sut
        .http()
        .get(`/v1/contractors/${created.id}`)
        .set(...bearer(key));
      expect(stored.body.data.notes).toBe('update 30');
    });

    it('slides: at the very ms the oldest write leaves one more is allowed, one ms earlier it is not', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      await writes(key, 1);
      clock.set(t0 + 10_500);
      await writes(key, 29);

      clock.set(t0 + WINDOW_MS - 1);
      expect(expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0) })).toBe(1);
      clock.set(t0 + WINDOW_MS);
      const allowed = await write(key);
      expect({ status: allowed.status, headers: rateHeaders(allowed) }).toEqual({
        status: 201,
        headers: { limit: 30, remaining: 0, reset: resetOf(t0 + 10_500) },
      });
      // Only the one write left; the 29 made at t0 + 10.5 s still count for another 10.5 s.
      expect(expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0 + 10_500) })).toBe(11);
    });

    it('gives capacity back gradually, as each request ages out, not all at once as a fixed window would', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      for (const offset of [0, 20_000, 40_000]) {
        clock.set(t0 + offset);
        await writes(key, 10);
      }
      expect(expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0) })).toBe(20);

      // A minute after the first ten, exactly those ten are back: Remaining 9 … 0, then a refusal.
      clock.set(t0 + WINDOW_MS);
      const back = await writes(key, 10);
      expect(back.map((response) => rateHeaders(response)?.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0 + 20_000) })).toBe(20);

      clock.set(t0 + 20_000 + WINDOW_MS - 1);
      expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0 + 20_000) });
      clock.set(t0 + 20_000 + WINDOW_MS);
      await writes(key, 10);
      expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0 + 40_000) });
    });

    it('refuses the 201st request; refusals consume nothing, so the whole quota is back once the window passes', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      const first = await reads(key, 200);
      expect(rateHeaders(first[199])).toEqual({ limit: 200, remaining: 0, reset: resetOf(t0) });
      expect(expectRateLimited(await read(key), { limit: 200, remaining: 0, reset: resetOf(t0) })).toBe(60);

      clock.set(t0 + 30_000);
      for (let i = 0; i < 5; i++)
        expect(expectRateLimited(await read(key), { limit: 200, remaining: 0, reset: resetOf(t0) })).toBe(30);
      clock.set(t0 + WINDOW_MS - 1);
      expect(expectRateLimited(await read(key), { limit: 200, remaining: 0, reset: resetOf(t0) })).toBe(1);

      // Had any refusal counted, it would still be in the window now and fewer than 200 would fit.
      clock.set(t0 + WINDOW_MS);
      const again = await reads(key, 200);
      expect(rateHeaders(again[0])).toEqual({ limit: 200, remaining: 199, reset: resetOf(t0 + WINDOW_MS) });
      expect(expectRateLimited(await read(key), { limit: 200, remaining: 0, reset: resetOf(t0 + WINDOW_MS) })).toBe(60);
    });

    it('a refused write uses up nothing of the requests window, and reads go on while writes are refused', async () => {
      const key = await freshKey();
      const t0 = clock.now();
      await writes(key, 30);
      for (let i = 0; i < 5; i++) expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0) });
      const readOn = await read(key);
      expect({ status: readOn.status, headers: rateHeaders(readOn) }).toEqual({
        status: 200,
        headers: { limit: 200, remaining: 200 - 30 - 1, reset: resetOf(t0) },
      });
      expect(await countContractors(sut, key.teamId)).toBe(30);
    });

    it('limits each key on its own, even two keys of one team', async () => {
      const key = await freshKey();
      const sameTeam = await sut.app.get(ApiKeysService).createKey(key.teamId, 'second');
      keys.push(sameTeam);
      const otherTeam = await freshKey();
      const t0 = clock.now();
      await writes(key, 30);
      expectRateLimited(await write(key), { limit: 30, remaining: 0, reset: resetOf(t0) });
      for (const other of [sameTeam, otherTeam]) {
        const created = await write(other);
        expect({ status: created.status, headers: rateHeaders(created) }).toEqual({
          status: 201,
          headers: { limit: 30, remaining: 29, reset: resetOf(t0) },
        });
      }
    });
  });
}
