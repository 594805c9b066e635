import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConnectionErrors } from '../persistence/connection-errors.js';
import { Transactions } from '../persistence/transactions.js';
import { EntityTagGuard } from './entity-tag.guard.js';
import { IdempotencyCleanup } from './idempotency.cleanup.js';
import { IdempotencyStore } from './idempotency.store.js';
import { SafeWritesInterceptor } from './safe-writes.interceptor.js';
import { WriteEventsInterceptor } from './write-events.js';

/**
 * Idempotency keys, ETags and preconditions for every resource, and the request transaction a write and its event
 * share. The interceptors are put on every keyed write by the decorators that document its Idempotency-Key
 * (`ApiCreate`, `ApiUpdate`, `ApiDelete`, `ApiWrite`), in this order: safe writes outside, the app's events
 * (`WRITE_EVENTS`) inside, so an event is written in the safe-write savepoint and never for a replayed answer. Reads go
 * through neither; a one-record read gets its ETag from `EntityTagGuard`.
 */
/** What every module may use: the interceptors are instantiated in the module of each controller that writes. */
const SHARED = [Transactions, IdempotencyStore, IdempotencyCleanup, SafeWritesInterceptor, WriteEventsInterceptor];

@Global()
@Module({
  providers: [...SHARED, ConnectionErrors, { provide: APP_GUARD, useClass: EntityTagGuard }],
  exports: SHARED,
})
export class SafeWritesModule {}
