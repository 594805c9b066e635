import { ApiProperty } from '@nestjs/swagger';
import type { ImportRow } from '../imports.repository.js';
import { IMPORT_RESOURCES } from '../import-resources.js';

export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** An import: its rows' progress and what they did (CONTRACT "Imports and exports"). */
export class ImportResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: '6a1e9a9e-5d1c-4d7e-9a55-3f0f6c1b2a10' })
  id!: string;
  @ApiProperty({ enum: IMPORT_RESOURCES, enumName: 'ImportResource', example: 'units' })
  resource!: string;
  /** `succeeded` once every row ran, whatever `failedCount`; `failed` only when it could not run. */
  @ApiProperty({ enum: IMPORT_STATUSES, enumName: 'ImportStatus', example: 'queued' })
  status!: (typeof IMPORT_STATUSES)[number];
  /** Validates every row and writes nothing; the counts are what it would have done. */
  @ApiProperty({ example: false })
  dryRun!: boolean;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 2 })
  totalRows!: number;
  /** Rows handled so far, failed ones included. */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 0 })
  processedRows!: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 0 })
  createdCount!: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 0 })
  updatedCount!: number;
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 0 })
  failedCount!: number;
  @ApiProperty({ format: 'date-time', readOnly: true, example: '2026-01-15T09:30:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, readOnly: true, example: null })
  startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, readOnly: true, example: null })
  finishedAt!: string | null;

  /** The one mapping from an import's row to the API's shape. */
  static from(this: void, row: ImportRow): ImportResponse {
    const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
    return {
      id: row.id,
      resource: row.resource,
      status: row.status,
      dryRun: row.dryRun,
      totalRows: row.totalRows,
      processedRows: row.processedRows,
      createdCount: row.createdCount,
      updatedCount: row.updatedCount,
      failedCount: row.failedCount,
      createdAt: iso(row.createdAt) as string,
      startedAt: iso(row.startedAt),
      finishedAt: iso(row.finishedAt),
    };
  }
}

/** A row of an import that failed. */
export class ImportErrorResponse {
  /** The row's number, from 1 for the first data row (a CSV's header is not counted). */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 2 })
  row!: number;
  @ApiProperty({ type: String, nullable: true, example: 'UNIT-0042' })
  externalRef!: string | null;
  /** The error the row's POST (or PUT) would have answered. */
  @ApiProperty({ example: 'postcode must be a string of at most 80 characters' })
  error!: string;
}
