import { Injectable } from '@nestjs/common';
import { PeriodicTask } from '@app/common';
import { EventsStore } from './events.store.js';

/**
 * Deletes events older than 30 days (and finished webhook deliveries of that age), every 10 minutes on every
 * instance. A cursor that pointed at a deleted event gets 410.
 */
@Injectable()
export class EventsCleanup extends PeriodicTask {
  constructor(private readonly events: EventsStore) {
    super(10 * 60_000, 'Events');
  }

  run(): Promise<number> {
    return this.events.deleteExpired();
  }
}
