import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Transactions } from '../persistence/transactions.js';
import { IdempotencyCleanup } from './idempotency.cleanup.js';
import { IdempotencyStore } from './idempotency.store.js';
import { SafeWritesInterceptor } from './safe-writes.interceptor.js';

/** Idempotency keys, ETags and preconditions for every resource, and the request transaction they share. */
@Global()
@Module({
  providers: [
    Transactions,
    IdempotencyStore,
    IdempotencyCleanup,
    { provide: APP_INTERCEPTOR, useClass: SafeWritesInterceptor },
  ],
  exports: [Transactions, IdempotencyCleanup],
})
export class SafeWritesModule {}
