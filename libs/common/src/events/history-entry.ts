import type { Actor } from '../auth/caller.js';
import type { EventType } from './event-types.js';

/**
 * What an event says beyond its body, for the record's history (CONTRACT "History of every record"): who made the
 * change, and, for an event about a part of a record (an inspection's note or photo), the record whose
 * history the change belongs to.
 */
export interface EventContext {
  actor?: Actor;
  /** The record whose history takes the entry, when it is not the event's object (a note's inspection). */
  parent?: { record: string; id: string };
}

/** One field's change in an `updated` entry. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** A history entry to write beside the event, on `record` (`inspection`) `recordId`. */
export interface HistoryEntryWrite {
  kind: 'entry';
  record: string;
  recordId: string;
  /** `created`, `updated`, or `<part>_added|_updated|_deleted` for a part of the record (`note_added`). */
  type: string;
  actor: Actor;
  changes: Record<string, FieldChange> | null;
  /** The part's id (the note's), for an entry about a part of the record; otherwise null. */
  subjectId: string | null;
}

/** The record is gone: its history goes with it (it is kept as long as the record lives). */
export interface HistoryForget {
  kind: 'forget';
  record: string;
  recordId: string;
}

export type HistoryWrite = HistoryEntryWrite | HistoryForget;

/** Until imports and the service's own changes say who they are, a change with no actor is the service's. */
const SYSTEM: Actor = { type: 'system' };

const PART_ACTIONS = { created: 'added', updated: 'updated', deleted: 'deleted' } as const;

/**
 * What the history gets from one event, in the same statement that records it (events.store.ts):
 * - `<record>.created` → `created` on the object, `changes` null;
 * - `<record>.updated` → `updated` with each changed top-level field → `{from, to}` (the fields of
 *   `previousAttributes`, which never holds `updatedAt`; `{}` when nothing changed);
 * - `<record>.deleted` → the record's history is deleted;
 * - with `context.parent`, the event is about a part of the parent (`inspection_note` of `inspection`): the entry
 *   goes on the parent as `<part>_added|_updated|_deleted`, the part named by the event's record without the
 *   parent's prefix (`note`), `subjectId` its id, `changes` null.
 * Undefined when the object has no id (nothing to file the entry under).
 */
export function historyWriteOf(
  type: EventType,
  object: object,
  previousAttributes: Record<string, unknown> | undefined,
  context: EventContext = {},
): HistoryWrite | undefined {
  const dot = type.lastIndexOf('.');
  const record = type.slice(0, dot);
  const action = type.slice(dot + 1) as keyof typeof PART_ACTIONS;
  const id = (object as { id?: unknown }).id;
  // `import.completed` is about an import, not a change of a record.
  if (typeof id !== 'string' || !(action in PART_ACTIONS)) return undefined;
  const actor = context.actor ?? SYSTEM;
  const { parent } = context;
  if (parent) {
    const prefix = `${parent.record}_`;
    const part = record.startsWith(prefix) ? record.slice(prefix.length) : record;
    return {
      kind: 'entry',
      record: parent.record,
      recordId: parent.id,
      type: `${part}_${PART_ACTIONS[action]}`,
      actor,
      changes: null,
      subjectId: id,
    };
  }
  if (action === 'deleted') return { kind: 'forget', record, recordId: id };
  const changes = action === 'updated' ? changesOf(object, previousAttributes ?? {}) : null;
  return { kind: 'entry', record, recordId: id, type: action, actor, changes, subjectId: null };
}

/** `{field: {from, to}}` for each field of `previousAttributes` (the old values), `to` read from the new object. */
export function changesOf(object: object, previousAttributes: Record<string, unknown>): Record<string, FieldChange> {
  const now = object as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(previousAttributes)
      .filter(([field]) => field !== 'updatedAt')
      .map(([field, from]) => [field, { from: from ?? null, to: now[field] ?? null }]),
  );
}
