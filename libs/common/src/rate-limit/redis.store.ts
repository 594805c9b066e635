import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateDecision, SlidingWindowStore, WindowLimit } from './sliding-window.store.js';

/**
 * Checks and counts every window in one script, so concurrent requests on any number of instances see one
 * consistent count, and a request is counted in all its windows or in none.
 * KEYS: one sorted set per window (request times as scores).
 * ARGV: now, expired (now - windowMs), windowMs, member, then one limit per key. Times travel as strings
 * from the caller: Lua would print large numbers with 14 significant digits only.
 * Returns: allowed (1/0), then per window: count, oldest (or -1), retryAfterMs.
 */
const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[3])
local counts = {}
local allowed = 1
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[2])
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= tonumber(ARGV[4 + i]) then allowed = 0 end
end
local result = { allowed }
for i = 1, #KEYS do
  local limit = tonumber(ARGV[4 + i])
  if allowed == 1 then
    redis.call('ZADD', KEYS[i], ARGV[1], ARGV[4])
    redis.call('PEXPIRE', KEYS[i], windowMs)
    counts[i] = counts[i] + 1
  end
  local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  local retry = 0
  if allowed == 0 and counts[i] >= limit then
    -- Room for one more once the entries up to this rank have left the window.
    local entry = redis.call('ZRANGE', KEYS[i], counts[i] - limit, counts[i] - limit, 'WITHSCORES')
    retry = tonumber(entry[2]) + windowMs - now
  end
  table.insert(result, counts[i])
  table.insert(result, oldest[2] and tonumber(oldest[2]) or -1)
  table.insert(result, retry)
end
return result
`;

export class RedisSlidingWindowStore extends SlidingWindowStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ppa:rl',
  ) {
    super();
    this.redis.defineCommand('ppaConsumeWindows', { lua: CONSUME_SCRIPT });
  }

  async consume(key: string, windows: readonly WindowLimit[], now: number, windowMs: number): Promise<RateDecision> {
    // The hash tag keeps one key's windows in one slot on Redis Cluster.
    const keys = windows.map((window) => `${this.prefix}:{${key}}:${window.name}`);
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    const command = (this.redis as unknown as Record<string, (...args: Array<string | number>) => Promise<number[]>>)
      .ppaConsumeWindows;
    const reply = await command.call(
      this.redis,
      keys.length,
      ...keys,
      String(now),
      String(now - windowMs),
      windowMs,
      member,
      ...windows.map((window) => window.limit),
    );
    return {
      allowed: reply[0] === 1,
      windows: windows.map((window, i) => {
        const [count, oldest, retryAfterMs] = reply.slice(1 + i * 3, 4 + i * 3).map(Number);
        return { ...window, count, oldest: oldest < 0 ? undefined : oldest, retryAfterMs };
      }),
    };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
