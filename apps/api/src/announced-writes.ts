import type { Type } from '@nestjs/common';
import {
  createValidationPipe,
  eventObjectOf,
  eventRecordOf,
  previousAttributes,
  Transactions,
  type Actor,
  type EventContext,
  type EventType,
} from '@app/common';
import { EventsStore } from './events/index.js';
import { announcerOf } from './resources.js';

/** Where the writer finds the services (an application context, or a feature's `ModuleRef`). */
export interface ServiceSource {
  get<T>(type: Type<T>, options: { strict: boolean }): T;
}

/**
 * Writes records outside a request as a request would write them: each body validated and transformed by the
 * route's pipe, and each change announced (its event, its history entry, its webhook deliveries) in the change's
 * own transaction — or the caller's, when it runs inside one. The demo team's example records and a sandbox's
 * sample data are written through it.
 */
export class AnnouncedWrites {
  private readonly pipe = createValidationPipe();
  private readonly transactions: Transactions;
  private readonly events: EventsStore;

  constructor(
    private readonly services: ServiceSource,
    readonly teamId: string,
  ) {
    this.transactions = services.get(Transactions, { strict: false });
    this.events = services.get(EventsStore, { strict: false });
  }

  service<T>(type: Type<T>): T {
    return this.services.get(type, { strict: false });
  }

  /** A body as a request's would reach the service: validated (an invalid one throws) and transformed. */
  async body<T extends object>(body: object, metatype: Type<T>): Promise<T> {
    return (await this.pipe.transform(structuredClone(body), { type: 'body', metatype })) as T;
  }

  /** `body` for a class known only as a `Type` (the registry's examples). */
  anyBody(body: object, metatype: Type): Promise<object> {
    return this.body<object>(body, metatype as Type<object>);
  }

  /** Creates a record with `create` and announces it (in its parent's history too, for a nested one). */
  created<R>(service: Type, create: () => Promise<R>, actor: Actor, parentId?: string): Promise<R> {
    return this.transactions.run(async (manager) => {
      const record = await create();
      const resource = announcerOf(service);
      if (!resource || !record || typeof record !== 'object') return record;
      const context: EventContext = { actor };
      if (resource.parent && parentId) context.parent = { record: eventRecordOf(resource.parent), id: parentId };
      // The event carries what the API's would (an attachment without its signed URL), not the service's answer.
      await this.events.record(
        manager,
        this.teamId,
        `${eventRecordOf(resource)}.created` as EventType,
        eventObjectOf(resource, record),
        undefined,
        context,
      );
      return record;
    });
  }

  /** Changes the record `before` with `update` and announces it with the attributes it changed. */
  updated<R extends object>(service: Type, before: object, update: () => Promise<R>, actor: Actor): Promise<R> {
    return this.transactions.run(async (manager) => {
      const record = await update();
      const resource = announcerOf(service);
      if (!resource) return record;
      const type = `${eventRecordOf(resource)}.updated` as EventType;
      const object = eventObjectOf(resource, record);
      await this.events.record(manager, this.teamId, type, object, previousAttributes(before, object), { actor });
      return record;
    });
  }
}
