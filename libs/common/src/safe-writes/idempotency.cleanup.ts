import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock.js';
import { PeriodicTask } from '../clock/periodic-task.js';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from './idempotency.store.js';

/**
 * Deletes stored answers older than 24 hours, every 10 minutes on every instance. Lookups ignore expired answers
 * anyway; this only bounds the table.
 */
@Injectable()
export class IdempotencyCleanup extends PeriodicTask {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {
    super(10 * 60_000, 'Idempotency');
  }

  /** One pass; the number of answers deleted. */
  run(): Promise<number> {
    return this.store.deleteStoredBefore(new Date(this.clock.now() - IDEMPOTENCY_RETENTION_MS));
  }
}
