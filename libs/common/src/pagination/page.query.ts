import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ExternalRefFilter } from '../validation/external-ref.js';
import { IsDateTimeInput, NormalizeDateTime, ToInteger } from '../validation/transforms.js';

/** List orders: a field, descending with a leading `-`; ties are broken by `id` in the same direction. */
export const LIST_SORTS = ['-createdAt', 'createdAt', '-updatedAt', 'updatedAt'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/**
 * `page` and `pageSize`, shared by every paged list. class-validator runs a property's decorators
 * bottom-up and only the first failure is reported, so the type check sits nearest the property.
 */
export class PagingQuery {
  /** Page number, from 1. */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000, default: 1 })
  @IsOptional()
  @ToInteger()
  @Max(1_000_000)
  @Min(1)
  @IsInt()
  page: number = 1;

  /** Records per page. */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 50, default: 20 })
  @IsOptional()
  @ToInteger()
  @Max(50)
  @Min(1)
  @IsInt()
  pageSize: number = 20;
}

/** `page`, `pageSize`, `search`, `externalRef`, `updatedSince` and `sort`: the query of every record list. */
export class PageQuery extends PagingQuery {
  /** Case-insensitive substring match (`%` and `_` are literal); trimmed; empty means no filter. */
  @IsOptional()
  // eslint-disable-next-line no-control-regex -- the separator chr(31) joins searched fields in the indexes
  @Matches(/^[^\u0000-\u001f]*$/, { message: 'search must not contain control characters' })
  @MaxLength(200)
  @IsString()
  search?: string;

  @ExternalRefFilter()
  externalRef?: string;

  /**
   * Only records changed at or after this time (`updatedAt` ≥ it), e.g. `2026-11-21T09:00:00Z`; a date alone
   * (`2026-11-21`) is midnight UTC. With `sort=updatedAt`, a sync walks a team's changes: see
   * docs/sync-and-retries.md.
   */
  // No `example`: Swagger UI would pre-fill it, and a fixed date filters "Try it out" lists down to nothing.
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @NormalizeDateTime()
  @IsDateTimeInput()
  updatedSince?: string;

  /** `-createdAt` (newest first), `createdAt`, `-updatedAt` or `updatedAt`; ties by `id` in the same direction. */
  @ApiPropertyOptional({ enum: LIST_SORTS, enumName: 'ListSort', default: '-createdAt' })
  @IsOptional()
  @IsIn(LIST_SORTS)
  sort: ListSort = '-createdAt';
}
