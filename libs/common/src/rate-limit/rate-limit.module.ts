import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config.js';
import { MemorySlidingWindowStore } from './memory.store.js';
import { ALL_REQUESTS, WINDOW_MS, WRITE_REQUESTS } from './rate-limit.guard.js';
import { RedisSlidingWindowStore } from './redis.store.js';
import { SlidingWindowStore } from './sliding-window.store.js';

function createStore(config: AppConfig): SlidingWindowStore {
  if (!config.REDIS_URL) return new MemorySlidingWindowStore();
  const redis = new Redis(config.REDIS_URL, {
    // Fail fast instead of queueing while Redis is away; the guard then lets requests through.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: false,
  });
  redis.on('error', () => undefined);
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

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStoreModule],
      inject: [AppConfig, SlidingWindowStore],
      useFactory: (config: AppConfig, store: SlidingWindowStore) => ({
        throttlers: [
          { name: ALL_REQUESTS, ttl: WINDOW_MS, limit: config.RATE_LIMIT_PER_MINUTE },
          { name: WRITE_REQUESTS, ttl: WINDOW_MS, limit: config.RATE_LIMIT_WRITES_PER_MINUTE },
        ],
        storage: store,
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
