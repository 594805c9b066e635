import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import {
  deleteRedisKeys,
  pingRedis,
  redisSuitesRun,
  requireRedis,
  testRedisClient,
} from '../../../../test/support/redis.js';
import { MemorySlidingWindowStore } from './memory.store.js';
import { RedisSlidingWindowStore } from './redis.store.js';
import { SlidingWindowStore, WindowLimit } from './sliding-window.store.js';

const WINDOW = 60_000;
/** Deliberately not on a whole second, so rounding mistakes show. */
const T = Date.UTC(2030, 0, 1, 0, 0, 0, 250);
const all = (limit: number): WindowLimit => ({ name: 'all', limit });
const writes = (limit: number): WindowLimit => ({ name: 'writes', limit });

// Top-level await: whether Redis answers decides, before any test is declared, whether the Redis half runs.
const redisUp = await pingRedis();

let keySequence = 0;
const freshKey = (): string => `key-${++keySequence}`;

/** The behaviour every store must have; run against each implementation below. */
function behavesAsSlidingWindowStore(getStore: () => SlidingWindowStore): void {
  const consume = (key: string, windows: WindowLimit[], now: number) => getStore().consume(key, windows, now, WINDOW);

  it('counts requests and refuses the one over the limit, reporting count, oldest and the exact wait', async () => {
    const key = freshKey();
    for (const [i, at] of [T, T + 1_000, T + 2_000].entries()) {
      const decision = await consume(key, [all(3)], at);
      expect(decision).toEqual({
        allowed: true,
        windows: [{ name: 'all', limit: 3, count: i + 1, oldest: T, retryAfterMs: 0 }],
      });
    }
    const refused = await consume(key, [all(3)], T + 3_000);
    expect(refused).toEqual({
      allowed: false,
      windows: [{ name: 'all', limit: 3, count: 3, oldest: T, retryAfterMs: 57_000 }],
    });
  });

  it('slides: a request leaves the window exactly windowMs after it was made, not at a fixed boundary', async () => {
    const key = freshKey();
    await consume(key, [all(2)], T);
    await consume(key, [all(2)], T + 30_000);
    expect(await consume(key, [all(2)], T + 59_999)).toMatchObject({ allowed: false, windows: [{ retryAfterMs: 1 }] });
    expect(await consume(key, [all(2)], T + 60_000)).toMatchObject({
      allowed: true,
      windows: [{ count: 2, oldest: T + 30_000 }],
    });
    // The request at T + 30 s is still inside; a fixed window restarted at T + 60 s would have room now.
    expect(await consume(key, [all(2)], T + 60_001)).toMatchObject({
      allowed: false,
      windows: [{ count: 2, oldest: T + 30_000, retryAfterMs: 29_999 }],
    });
    expect(await consume(key, [all(2)], T + 90_000)).toMatchObject({
      allowed: true,
      windows: [{ count: 2, oldest: T + 60_000 }],
    });
  });

  it('a refusal consumes nothing: refused requests never count later', async () => {
    const key = freshKey();
    await consume(key, [all(2)], T);
    await consume(key, [all(2)], T + 10_000);
    for (let at = T + 20_000; at < T + 60_000; at += 5_000) {
      expect((await consume(key, [all(2)], at)).allowed).toBe(false);
    }
    // Had the refusals counted, the window would still be full at T + 70 s.
    expect(await consume(key, [all(2)], T + 70_000)).toMatchObject({
      allowed: true,
      windows: [{ count: 1, oldest: T + 70_000 }],
    });
  });

  it('checks several windows at once: counted in all of them or, when any is full, in none', async () => {
    const key = freshKey();
    expect(await consume(key, [all(5), writes(2)], T)).toMatchObject({
      allowed: true,
      windows: [{ count: 1 }, { count: 1 }],
    });
    expect(await consume(key, [all(5), writes(2)], T + 1)).toMatchObject({
      allowed: true,
      windows: [{ count: 2 }, { count: 2 }],
    });
    expect(await consume(key, [all(5), writes(2)], T + 2)).toEqual({
      allowed: false,
      windows: [
        { name: 'all', limit: 5, count: 2, oldest: T, retryAfterMs: 0 },
        { name: 'writes', limit: 2, count: 2, oldest: T, retryAfterMs: WINDOW - 2 },
      ],
    });
    // The refused write left "all" untouched; reads still fit, until "all" itself is full.
    expect(await consume(key, [all(5)], T + 3)).toMatchObject({ allowed: true, windows: [{ count: 3 }] });
    await consume(key, [all(5)], T + 4);
    await consume(key, [all(5)], T + 5);
    const bothFull = await consume(key, [all(5), writes(2)], T + 6);
    expect(bothFull).toMatchObject({
      allowed: false,
      windows: [
        { count: 5, retryAfterMs: WINDOW - 6 },
        { count: 2, retryAfterMs: WINDOW - 6 },
      ],
    });
    // "all" refuses a write while "writes" has room: the write is not counted in "writes" either.
    const other = freshKey();
    for (let i = 0; i < 3; i++) await consume(other, [all(3)], T + i);
    expect(await consume(other, [all(3), writes(2)], T + 10)).toMatchObject({
      allowed: false,
      windows: [
        { count: 3, retryAfterMs: WINDOW - 10 },
        { count: 0, oldest: undefined, retryAfterMs: 0 },
      ],
    });
  });

  it('gives the wait until enough requests leave when the limit was lowered below the count', async () => {
    const key = freshKey();
    for (let i = 0; i < 5; i++) await consume(key, [all(5)], T + i * 1_000);
    // 5 counted, limit now 3: the requests at T, T+1s and T+2s must leave before one more fits.
    expect(await consume(key, [all(3)], T + 5_000)).toMatchObject({
      allowed: false,
      windows: [{ count: 5, oldest: T, retryAfterMs: 2_000 + WINDOW - 5_000 }],
    });
  });

  it('keeps keys and window names independent', async () => {
    const first = freshKey();
    const second = freshKey();
    await consume(first, [all(1)], T);
    expect((await consume(first, [all(1)], T + 1)).allowed).toBe(false);
    expect(await consume(second, [all(1)], T + 1)).toMatchObject({ allowed: true, windows: [{ count: 1 }] });
    expect(await consume(first, [writes(1)], T + 1)).toMatchObject({ allowed: true, windows: [{ count: 1 }] });
  });

  it('counts concurrent requests exactly: no more than the limit gets through', async () => {
    const key = freshKey();
    const decisions = await Promise.all(Array.from({ length: 40 }, () => consume(key, [all(100), writes(30)], T)));
    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(30);
    expect(allowed.map((decision) => decision.windows[1].count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(await consume(key, [all(100)], T)).toMatchObject({ windows: [{ count: 31 }] });
  });
}

describe(MemorySlidingWindowStore.name, () => {
  let store: MemorySlidingWindowStore;
  beforeAll(() => {
    store = new MemorySlidingWindowStore();
  });
  afterAll(() => store.close());

  behavesAsSlidingWindowStore(() => store);

  it('stays correct when the clock steps back', async () => {
    const key = freshKey();
    await consume3(store, key, [T + 10_000, T, T + 5_000]);
    // Oldest is the earliest time, whatever the order of arrival; it leaves first.
    expect(await store.consume(key, [all(3)], T + 11_000, WINDOW)).toMatchObject({
      allowed: false,
      windows: [{ oldest: T, retryAfterMs: WINDOW - 11_000 }],
    });
    expect(await store.consume(key, [all(3)], T + WINDOW, WINDOW)).toMatchObject({
      allowed: true,
      windows: [{ count: 3, oldest: T + 5_000 }],
    });
  });

  it('drops idle windows when sweeping, by the time it is given rather than the wall clock', async () => {
    const sweeping = new MemorySlidingWindowStore();
    await sweeping.consume('idle', [all(5)], T, WINDOW);
    await sweeping.consume('active', [all(5)], T + 30_000, WINDOW);
    sweeping.sweep();
    expect(sweeping.size).toBe(2);
    await sweeping.consume('active', [all(5)], T + WINDOW, WINDOW);
    sweeping.sweep();
    expect(sweeping.size).toBe(1);
    await sweeping.close();
  });
});

async function consume3(store: SlidingWindowStore, key: string, times: number[]): Promise<void> {
  for (const at of times) expect((await store.consume(key, [all(3)], at, WINDOW)).allowed).toBe(true);
}

// Skipped with a loud warning when no Redis answers, except under CI, which has Redis: see redisSuitesRun.
(redisSuitesRun(redisUp, 'RedisSlidingWindowStore on its own') ? describe : describe.skip)(
  RedisSlidingWindowStore.name,
  () => {
    const prefix = `ppa:rl:test:${randomBytes(6).toString('hex')}`;
    let redis: Redis;
    let store: RedisSlidingWindowStore;
    beforeAll(async () => {
      requireRedis(redisUp);
      redis = testRedisClient();
      await redis.connect();
      store = new RedisSlidingWindowStore(redis, prefix);
    });
    afterAll(async () => {
      await deleteRedisKeys(`${prefix}:*`);
      await store?.close();
    });

    behavesAsSlidingWindowStore(() => store);

    it('keeps a key only as long as its newest request is in the window', async () => {
      const key = freshKey();
      await store.consume(key, [all(5)], T, WINDOW);
      const ttl = await redis.pttl(`${prefix}:{${key}}:all`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW);
    });

    it('rejects at once, without hanging, when Redis is unreachable', async () => {
      const offline = new RedisSlidingWindowStore(testRedisClient('redis://127.0.0.1:1'));
      await expect(offline.consume(freshKey(), [all(5)], T, WINDOW)).rejects.toThrow();
      await offline.close();
    });
  },
);
