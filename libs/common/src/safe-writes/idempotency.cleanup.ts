import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../clock/clock.js';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from './idempotency.store.js';

const EVERY_MS = 10 * 60_000;

/**
 * Deletes stored answers older than 24 hours, every 10 minutes on every instance (a delete is idempotent,
 * so instances need no coordination). Lookups ignore expired answers anyway; this only bounds the table.
 */
@Injectable()
export class IdempotencyCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run().catch((error: Error) => this.log.warn(error.message)), EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One pass; the number of answers deleted. */
  run(): Promise<number> {
    return this.store.deleteStoredBefore(new Date(this.clock.now() - IDEMPOTENCY_RETENTION_MS));
  }
}
