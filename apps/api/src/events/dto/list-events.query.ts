import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { CommaList, ToInteger, type EventType } from '@app/common';
import { EVENT_TYPES } from '../../resources.js';

/** `GET /v1/events`: a cursor, a type filter and a page size. */
export class ListEventsQuery {
  /**
   * The `pagination.next` of the previous answer (an event id such as `evt_000000000000002a9f86d081884c7d65`):
   * only events committed after it. Omitted: from the oldest event still kept (30 days).
   */
  // No `example`: Swagger UI would pre-fill it, and a made-up cursor is refused.
  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^evt_[0-9a-f]{32}$/, { message: 'after must be the id of an event of this feed (evt_ and 32 hex digits)' })
  @IsString()
  after?: string;

  /** One event type or a comma-separated list (`work_order.created,work_order.updated`); omitted or empty: all. */
  @ApiPropertyOptional({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true, maxItems: EVENT_TYPES.length })
  @IsOptional()
  @CommaList()
  @IsIn(EVENT_TYPES, { each: true })
  types?: EventType[];

  /** Events per answer. */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @ToInteger()
  @Max(100)
  @Min(1)
  @IsInt()
  limit: number = 50;
}
