import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { from, lastValueFrom, Observable } from 'rxjs';
import { actorOf, type AuthenticatedRequest } from '@app/common';
import { Transactions } from '@app/common';
import {
  CONDITIONAL_RESOURCE,
  type ConditionalResourceOptions,
  type ConditionalSource,
  lockedRecord,
  parentIdOf,
} from '@app/common';
import { isUuid } from '@app/common';
import { eventObjectOf, eventRecordOf, previousAttributes, type EventAction, type EventType } from '@app/common';
import type { EventContext } from '@app/common';
import { EventsStore } from './events.store.js';

const ACTION_OF_METHOD: Record<string, EventAction | undefined> = {
  POST: 'created',
  PUT: 'updated',
  DELETE: 'deleted',
};

/**
 * The outbox's writer (CONTRACT "Following changes"): a POST, PUT or DELETE of a resource runs in one transaction
 * with exactly one event for the record it wrote, inserted last, after the handler succeeded. A request that is
 * rejected (the handler throws), replayed (answered before the handler) or rolled back writes none: the event is
 * part of the same transaction — inside the safe-writes savepoint when the request has one. A PUT locks and
 * reads the record first, so `previousAttributes` compares the very version it replaced. The event names the
 * calling key as the change's actor, for the record's history (written by the same statement).
 */
@Injectable()
export class EventsInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
    private readonly transactions: Transactions,
    private readonly events: EventsStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const action = ACTION_OF_METHOD[request.method];
    const caller = request.caller;
    const resource = this.reflector.get<ConditionalResourceOptions | undefined>(
      CONDITIONAL_RESOURCE,
      context.getClass(),
    );
    if (!action || !caller || !resource) return next.handle();
    const rawId: unknown = request.params[resource.idParam];
    const id = typeof rawId === 'string' && isUuid(rawId) ? rawId.toLowerCase() : undefined;
    // A malformed id is refused by validation: there is nothing to announce.
    if (action !== 'created' && !id) return next.handle();
    const type: EventType = `${eventRecordOf(resource)}.${action}`;
    // A nested record's change belongs to its parent's history too (an invoice line's to its invoice's).
    const parentId = parentIdOf(resource, request.params);
    const about: EventContext = { actor: actorOf(caller) };
    if (resource.parent && parentId) about.parent = { record: eventRecordOf(resource.parent), id: parentId };

    return from(
      this.transactions.run(async (manager, own): Promise<unknown> => {
        let before: object | undefined;
        if (action === 'updated' && id) {
          const source = this.moduleRef.get<ConditionalSource>(resource.source, { strict: false });
          before = await lockedRecord(source, caller.teamId, id, parentId);
        }
        const value: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const data = (value as { data?: object } | undefined)?.data;
        const object = action === 'deleted' ? { id } : data && eventObjectOf(resource, data);
        if (object) {
          const changes = action === 'updated' && before ? previousAttributes(before, object) : undefined;
          // The transaction's last statement: when it is this request's own, the COMMIT goes out with it.
          await this.events.record(manager, caller.teamId, type, object, changes, about, { commits: own });
        }
        return value;
      }),
    );
  }
}
