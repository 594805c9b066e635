import { stringify } from 'csv-stringify/sync';
import { csvCellOf } from '@app/common';
import type { CsvColumn, ResponseRecord } from '../csv/index.js';

/**
 * RFC 4180 text by csv-stringify (maintained, no dependencies): a cell holding a comma, a quote, CR or LF is
 * quoted and its quotes doubled; records end with CRLF, as the RFC writes them. (csv-stringify itself quotes for
 * the record delimiter as a whole, CRLF: a lone CR or LF is quoted by `quoted_match`.)
 */
const OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/** The header row: the columns' names. */
export function csvHeaderOf(columns: CsvColumn[]): string {
  return stringify([columns.map(({ name }) => name)], OPTIONS);
}

/** One row per record, each cell by the column's kind (`csvCellOf`). */
export function csvRowsOf(columns: CsvColumn[], records: ResponseRecord[]): string {
  return stringify(
    records.map((record) => columns.map(({ kind, valueOf }) => csvCellOf(valueOf(record), kind))),
    OPTIONS,
  );
}
