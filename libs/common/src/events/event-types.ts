/** The records that announce their changes, as they appear in event types (`work_order.updated`). */
export const EVENT_RESOURCES = ['tenant', 'unit', 'landlord', 'contractor', 'work_order'] as const;
export const EVENT_ACTIONS = ['created', 'updated', 'deleted'] as const;

export type EventResource = (typeof EVENT_RESOURCES)[number];
export type EventAction = (typeof EVENT_ACTIONS)[number];
export type EventType = `${EventResource}.${EventAction}`;

/** Every event type of the feed, in catalogue order. */
export const EVENT_TYPES = EVENT_RESOURCES.flatMap((resource) =>
  EVENT_ACTIONS.map((action): EventType => `${resource}.${action}`),
);

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
