import { ApiProperty } from '@nestjs/swagger';
import type { PageQuery } from './page.query.js';

export class Pagination {
  /** Records matching the filters, across all pages. */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 })
  total!: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000 })
  page!: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 50 })
  pageSize!: number;
  /** `ceil(total / pageSize)`; 0 when there is nothing. */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 })
  pageCount!: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export function pageOf<T>(data: T[], total: number, query: Pick<PageQuery, 'page' | 'pageSize'>): Page<T> {
  return {
    data,
    pagination: {
      total,
      page: query.page,
      pageSize: query.pageSize,
      pageCount: Math.ceil(total / query.pageSize),
    },
  };
}

/** The `search` term as an ILIKE pattern with `%`, `_` and `\` taken literally; undefined when empty. */
export function containsPattern(search: string | undefined): string | undefined {
  if (search === undefined || search === '') return undefined;
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
