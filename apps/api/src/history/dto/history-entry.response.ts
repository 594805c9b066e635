import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Actor, FieldChange } from '@app/common';
import type { HistoryEntryRow } from '../history-entry.row.js';

const ACTOR_TYPES = ['api_key', 'import', 'system'] as const;

/** Who made a change: an API key (never its secret), an import, or the service itself. */
export class HistoryActor {
  /** `api_key`: a request with that key; `import`: a row of that import; `system`: the service itself. */
  @ApiProperty({ enum: ACTOR_TYPES, enumName: 'ActorType', example: 'api_key' })
  type!: Actor['type'];

  /** The key's id (`api_key`) or the import's (`import`); absent for `system`. */
  @ApiPropertyOptional({ format: 'uuid', example: '0b6f1f7e-3c5d-4a8e-9f21-7d4c2b1a0e93' })
  id?: string;

  /** `api_key` only: the key's name as its team gave it (null: unnamed). */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Maintenance desk' })
  name?: string | null;
}

/** One change a record went through. */
export class HistoryEntryResponse {
  /** The id of the event that announced the change (the feed keeps events 30 days; the history keeps this entry). */
  @ApiProperty({ example: 'evt_000000000000002a9f86d081884c7d65', readOnly: true })
  id!: string;

  /**
   * `created`, `updated`; on a work order also `note_added`, `note_updated`, `note_deleted`, `attachment_added`,
   * `attachment_deleted`.
   */
  @ApiProperty({ example: 'updated', readOnly: true })
  type!: string;

  /** When the change was made (UTC, milliseconds). */
  @ApiProperty({ format: 'date-time', readOnly: true })
  at!: string;

  @ApiProperty({ type: HistoryActor, readOnly: true })
  actor!: HistoryActor;

  /**
   * On `updated`: each changed top-level field → `{from, to}` (never `updatedAt`; `{}` when the PUT changed no
   * value); otherwise null.
   */
  @ApiProperty({
    type: 'object',
    nullable: true,
    readOnly: true,
    additionalProperties: {
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: { description: 'The value before (any JSON value, null included)' },
        to: { description: 'The value after (any JSON value, null included)' },
      },
    },
    example: { status: { from: 'reported', to: 'in_progress' } },
  })
  changes!: Record<string, FieldChange> | null;

  /** The note's or attachment's id on a `note_*` or `attachment_*` entry; otherwise null. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, readOnly: true, example: null })
  subjectId!: string | null;

  static from(row: HistoryEntryRow): HistoryEntryResponse {
    return {
      id: row.id,
      type: row.type,
      at: row.at,
      actor: inContractOrder(row.actor),
      changes: row.changes && changesInContractOrder(row.changes),
      subjectId: row.subjectId,
    };
  }
}

/**
 * PostgreSQL's `jsonb` keeps an object's keys shortest first, so a stored actor reads `{id, name, type}` and a
 * change `{to, from}`: put them back in the order the contract shows them (`type` first; `from` before `to`).
 */
function inContractOrder(actor: Actor): Actor {
  if (actor.type === 'api_key') return { type: actor.type, id: actor.id, name: actor.name };
  if (actor.type === 'import') return { type: actor.type, id: actor.id };
  return { type: actor.type };
}

function changesInContractOrder(changes: Record<string, FieldChange>): Record<string, FieldChange> {
  return Object.fromEntries(Object.entries(changes).map(([field, { from, to }]) => [field, { from, to }]));
}
