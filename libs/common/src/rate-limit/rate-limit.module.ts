import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config.js';
import { MemorySlidingWindowStore } from './memory.store.js';
import { FailedAuthLimiter } from '../auth/failed-auth-limiter.js';
import { RequestGate } from '../auth/request-gate.js';
import { RateLimiter } from './rate-limiter.js';
import { RateLimits } from './rate-limits.js';
import { RedisSlidingWindowStore } from './redis.store.js';
import { SlidingWindowStore } from './sliding-window.store.js';

async function createStore(config: AppConfig): Promise<SlidingWindowStore> {
  if (!config.REDIS_URL) return new MemorySlidingWindowStore();
  const redis = new Redis(config.REDIS_URL, {
    // Commands fail at once while Redis is away (no queue, no per-command retries), so the guard can let
    // requests through without waiting; the client keeps reconnecting in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // A Redis that accepts connections but stops answering must not hold requests either.
    commandTimeout: 1_000,
    // Connected before the first request: without the offline queue, a command sent while the first
    // connection is still being made would fail, and the first requests after boot would go unlimited.
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    new Logger('RateLimit').warn(
      `Redis at REDIS_URL is unreachable (${error instanceof Error ? error.message : String(error)}); ` +
        'requests are not rate-limited until it answers',
    );
  }
  return new RedisSlidingWindowStore(redis);
}

@Global()
@Module({
  providers: [{ provide: SlidingWindowStore, inject: [AppConfig], useFactory: createStore }],
  exports: [SlidingWindowStore],
})
export class RateLimitStoreModule implements OnApplicationShutdown {
  constructor(@Inject(SlidingWindowStore) private readonly store: SlidingWindowStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** The named limits, read from the configuration once, and the limiter that applies them. */
@Global()
@Module({
  providers: [
    { provide: RateLimits, inject: [AppConfig], useFactory: (config: AppConfig) => RateLimits.fromConfig(config) },
    RateLimiter,
    // The gate applies the limiter; it lives here so the CLI (API keys without limits) does not need it.
    RequestGate,
    FailedAuthLimiter,
  ],
  exports: [RateLimits, RateLimiter, RequestGate],
})
export class RateLimitModule {}
