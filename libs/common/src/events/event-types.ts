import { MODULE_METADATA } from '@nestjs/common/constants.js';
import type { Type } from '@nestjs/common';
import { CONDITIONAL_RESOURCE, type ConditionalResourceOptions } from '../safe-writes/conditional-resource.js';

export const EVENT_ACTIONS = ['created', 'updated', 'deleted'] as const;

export type EventAction = (typeof EVENT_ACTIONS)[number];
/**
 * `<record>.<action>`; the records are the app's, which derives its catalogue with `eventRecordsOf`. Besides them,
 * `import.completed`: an import reached a final status (it is not a record's change: no history entry).
 */
export type EventType = `${string}.${EventAction}` | 'import.completed';

/** A record's name in event types, unless its controller names one: its name in words in snake case. */
export function eventRecordOf(resource: Pick<ConditionalResourceOptions, 'name' | 'event'>): string {
  return resource.event ?? resource.name.toLowerCase().replace(/\s+/g, '_');
}

/** A controller that announces its records' changes (`@ConditionalResource`), with the decorator's options. */
export interface AnnouncingController {
  controller: Type;
  resource: ConditionalResourceOptions;
}

/**
 * The `@ConditionalResource` controllers of the given modules, in their order: the one scan of the decorators that
 * the event catalogue, the histories and the demo records all read.
 */
export function announcingControllersOf(modules: Type[]): AnnouncingController[] {
  return modules.flatMap((module) =>
    ((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type[]).flatMap((controller) => {
      const resource = Reflect.getMetadata(CONDITIONAL_RESOURCE, controller) as ConditionalResourceOptions | undefined;
      return resource ? [{ controller, resource }] : [];
    }),
  );
}

/**
 * The records a module's controllers announce (each `@ConditionalResource` controller writes events), with their
 * names in words: read from the decorators, so a list of event types can never disagree with what is written.
 */
export function eventRecordsOf(module: Type): EventRecord[] {
  return announcingControllersOf([module]).map(({ resource }) => {
    const record: EventRecord = { record: eventRecordOf(resource), name: resource.name };
    if (resource.actions) record.actions = resource.actions;
    return record;
  });
}

/** A record that announces its changes: its name in event types, in words, and its actions when not all three. */
export interface EventRecord {
  record: string;
  name: string;
  actions?: readonly EventAction[];
}

/**
 * Every event type of the given records, in their order, each created, updated, deleted (in that order), or only
 * the actions a record declares.
 */
export const eventTypesOf = (records: ReadonlyArray<string | Pick<EventRecord, 'record' | 'actions'>>): EventType[] =>
  records.flatMap((entry) => {
    const { record, actions = EVENT_ACTIONS } = typeof entry === 'string' ? { record: entry } : entry;
    return EVENT_ACTIONS.filter((action) => actions.includes(action)).map((action): EventType => `${record}.${action}`);
  });

/** Events are kept this long; a cursor older than that gets 410. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** `{"id":"evt_…","type","createdAt","data":{"object","previousAttributes"?}}`, as the feed and webhooks show it. */
export interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  data: { object: object; previousAttributes?: Record<string, unknown> };
}

/**
 * The old values of the top-level fields that differ between two GET-one bodies (never `updatedAt`): an
 * `.updated` event's `previousAttributes`. Values are compared as JSON, embedded objects and arrays included.
 */
export function previousAttributes(before: object, after: object): Record<string, unknown> {
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(old)) {
    if (key === 'updatedAt') continue;
    if (JSON.stringify(old[key]) !== JSON.stringify(now[key])) changed[key] = old[key];
  }
  return changed;
}
