import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PagingQuery } from '@app/common';

/** A conversation reads oldest first: the orders a work order's notes can be listed in. */
export const NOTE_SORTS = ['createdAt', '-createdAt'] as const;
export type NoteSort = (typeof NOTE_SORTS)[number];

/** `page`, `pageSize` and `sort`; notes take no search or filter. */
export class ListNotesQuery extends PagingQuery {
  /** `createdAt` (oldest first, the default) or `-createdAt` (newest first); ties by `id` in the same direction. */
  @ApiPropertyOptional({ enum: NOTE_SORTS, enumName: 'NoteSort', default: 'createdAt' })
  @IsOptional()
  @IsIn(NOTE_SORTS)
  sort: NoteSort = 'createdAt';
}
