import { Global, Module } from '@nestjs/common';
import { WRITE_EVENTS } from '@app/common';
import { EventsCleanup } from './events.cleanup.js';
import { EventsController } from './events.controller.js';
import { EventsInterceptor } from './events.interceptor.js';
import { EventsStore } from './events.store.js';

/**
 * The outbox (`EventsStore`: each write's event and its fan-out to webhook deliveries), its writer on every keyed
 * write (`EventsInterceptor`, handed to libs/common's write decorators as `WRITE_EVENTS`), its cleanup, and
 * `GET /v1/events`, the feed over it. Global: every resource module's writes record their events here.
 */
@Global()
@Module({
  controllers: [EventsController],
  providers: [EventsStore, EventsCleanup, EventsInterceptor, { provide: WRITE_EVENTS, useExisting: EventsInterceptor }],
  exports: [EventsStore, WRITE_EVENTS],
})
export class EventsModule {}
