import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { EventsCleanup } from '../events/events.cleanup.js';
import { EventsInterceptor } from '../events/events.interceptor.js';
import { EventsStore } from '../events/events.store.js';
import { ConnectionErrors } from '../persistence/connection-errors.js';
import { Transactions } from '../persistence/transactions.js';
import { IdempotencyCleanup } from './idempotency.cleanup.js';
import { IdempotencyStore } from './idempotency.store.js';
import { SafeWritesInterceptor } from './safe-writes.interceptor.js';

/**
 * Idempotency keys, ETags and preconditions for every resource, the events (outbox) each write records, and the
 * request transaction they share. The interceptors run in this order: safe writes outside, events inside, so an
 * event is written in the safe-write savepoint and never for a replayed answer.
 */
@Global()
@Module({
  providers: [
    Transactions,
    ConnectionErrors,
    IdempotencyStore,
    IdempotencyCleanup,
    EventsStore,
    EventsCleanup,
    { provide: APP_INTERCEPTOR, useClass: SafeWritesInterceptor },
    { provide: APP_INTERCEPTOR, useClass: EventsInterceptor },
  ],
  exports: [Transactions, IdempotencyCleanup, EventsStore, EventsCleanup],
})
export class SafeWritesModule {}
