import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../resources.js';

export class EventData {
  /** The record exactly as GET one returned it after the change; `{"id"}` only for `.deleted`. */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { id: '2b0f3c1e-6f1f-4d8e-9a0b-1c2d3e4f5a6b' } })
  object!: object;

  /** On `.updated` only: the old values of the top-level fields that changed (never `updatedAt`). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { status: 'reported' } })
  previousAttributes?: Record<string, unknown>;
}

/** One committed change of a record of the team. */
export class EventResponse {
  /** `evt_` and 32 hex digits; also the cursor to pass as `after`. */
  @ApiProperty({ example: 'evt_000000000000002a9f86d081884c7d65', readOnly: true })
  id!: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', readOnly: true })
  type!: string;

  /** When the change was made (UTC, milliseconds). */
  @ApiProperty({ format: 'date-time', readOnly: true })
  createdAt!: string;

  @ApiProperty({ type: EventData, readOnly: true })
  data!: EventData;
}

export class EventPagination {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, example: 50 })
  limit!: number;

  /** Pass as `after` to read on; the `after` you sent (or null) when there was nothing new. */
  @ApiProperty({ type: String, nullable: true, example: 'evt_000000000000002a9f86d081884c7d65' })
  next!: string | null;

  /** More events are already there: read again at once. */
  @ApiProperty()
  hasMore!: boolean;
}

export class EventListResponse {
  @ApiProperty({ type: [EventResponse] })
  data!: EventResponse[];

  @ApiProperty({ type: EventPagination })
  pagination!: EventPagination;
}
