import { Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';

/** `GET /v1/events`: the feed over the outbox that every write fills (libs/common/src/events). */
@Module({ controllers: [EventsController] })
export class EventsModule {}
