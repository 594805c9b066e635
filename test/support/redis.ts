import { Redis } from 'ioredis';
import { ALL_REQUESTS, WRITE_REQUESTS } from '@app/common';

/** The Redis the rate-limit tests use: REDIS_URL when set, else the default local port. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A URL on which nothing listens (port 1 is reserved and closed), for the "Redis is down" behaviour. */
export const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';

/** A client that fails at once instead of queueing or reconnecting: tests want an answer, not a wait. */
export function testRedisClient(url = TEST_REDIS_URL): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
  });
  redis.on('error', () => undefined);
  return redis;
}

/** Whether a Redis answers PING at `url`. */
export async function pingRedis(url = TEST_REDIS_URL): Promise<boolean> {
  const redis = testRedisClient(url);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Redis suites run when Redis answers. Without it they are skipped with a warning on a developer's machine
 * (Redis is optional for development), but CI has Redis, so there an unreachable Redis must fail the run
 * instead of silently dropping the multi-instance proofs: the suite runs and `requireRedis` throws.
 */
export function redisSuitesRun(redisUp: boolean, suite: string): boolean {
  if (redisUp || process.env.CI) return true;
  console.warn(
    `\n!!! SKIPPED: ${suite} — no Redis answers at ${TEST_REDIS_URL}. Start one (redis-server) or set REDIS_URL ` +
      'to run them; with CI set they fail instead of being skipped.\n',
  );
  return false;
}

/** Fails the suite (rather than each test timing out) when it must run but Redis is unreachable. */
export function requireRedis(redisUp: boolean): void {
  if (!redisUp)
    throw new Error(`CI is set but no Redis answers at ${TEST_REDIS_URL}: the rate-limit Redis tests need one`);
}

/** Deletes every key under `pattern` (SCAN, never KEYS or FLUSH: the Redis may be shared). */
export async function deleteRedisKeys(pattern: string, url = TEST_REDIS_URL): Promise<number> {
  const redis = testRedisClient(url);
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Deletes the store's windows of these API keys (`ppa:rl:{apiKeyId}:<window>`, see RedisSlidingWindowStore). */
export async function deleteRateLimitKeys(apiKeyIds: string[], url = TEST_REDIS_URL): Promise<number> {
  if (apiKeyIds.length === 0) return 0;
  const redis = testRedisClient(url);
  await redis.connect();
  try {
    return await redis.del(
      ...apiKeyIds.flatMap((id) => [ALL_REQUESTS, WRITE_REQUESTS].map((name) => `ppa:rl:{${id}}:${name}`)),
    );
  } finally {
    redis.disconnect();
  }
}
