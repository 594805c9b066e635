import { StringDecoder } from 'node:string_decoder';
import { PassThrough, type Readable } from 'node:stream';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { parse } from 'csv-parse';
import { CsvCellError, csvValueOf } from '@app/common';
import type { ImportColumns } from '../csv/index.js';
import type { StoredImportRow } from './imports.repository.js';
import { asUtf8 } from './body-text.js';

/** At most this many rows and bytes in one import (CONTRACT "Imports and exports"). */
export const MAX_IMPORT_ROWS = 50_000;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Received rows are written this many at a time. */
export const RECEIVE_BATCH = 1_000;

export type ImportFormat = 'csv' | 'ndjson';

const tooManyRows = () => new PayloadTooLargeException(`An import holds at most ${MAX_IMPORT_ROWS} rows`);
/** The 413 of a body over 20 MiB (its text is the OpenAPI example too). */
export const IMPORT_TOO_LARGE = `An import body is at most ${MAX_IMPORT_BYTES} bytes (20 MiB)`;
export const importTooLarge = (): PayloadTooLargeException => new PayloadTooLargeException(IMPORT_TOO_LARGE);

/**
 * The body as it is read, refused (413) past the byte limit (already enforced as the request's body was received,
 * `ReceiveImportGuard`; kept here so the rows are never read past it whatever hands them over).
 */
function limited(body: Readable): Readable {
  let bytes = 0;
  const out = new PassThrough();
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_IMPORT_BYTES && bytes - chunk.length <= MAX_IMPORT_BYTES) {
      body.unpipe(out);
      body.resume();
      out.destroy(importTooLarge());
    }
  });
  body.on('error', (error) => out.destroy(error));
  body.pipe(out);
  return out;
}

/** A CSV record as the row's JSON fields: empty cells omitted, output-only columns dropped. */
function csvRow(header: string[], record: string[], columns: ImportColumns, row: number): StoredImportRow {
  const body: Record<string, unknown> = {};
  try {
    // A row longer than the header (cells under no column): whatever they hold would be dropped unseen.
    if (record.slice(header.length).some((cell) => cell.trim() !== '')) {
      throw new CsvCellError(`the row has ${record.length} cells, more than the header's ${header.length} columns`);
    }
    header.forEach((name, index) => {
      const kind = columns.columns.get(name);
      if (!kind) return;
      try {
        const value = csvValueOf(record[index] ?? '', kind);
        if (value !== undefined) body[name] = value;
      } catch (error) {
        if (error instanceof CsvCellError) throw new CsvCellError(`${name} ${error.message}`);
        throw error;
      }
    });
  } catch (error) {
    if (!(error instanceof CsvCellError)) throw error;
    // The row fails, and its error names its externalRef when it has one.
    const externalRef = record[header.indexOf('externalRef')]?.trim();
    return { row, body: externalRef ? { externalRef } : null, parseError: error.message };
  }
  return { row, body, parseError: null };
}

/** Refuses (400) a header naming a column that is neither the import's nor an output-only field. */
function checkHeader(header: string[], columns: ImportColumns): void {
  const unknown = header.filter((name) => !columns.columns.has(name) && !columns.ignored.has(name));
  if (unknown.length > 0) {
    throw new BadRequestException(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the columns are ` +
        [...columns.columns.keys()].join(', '),
    );
  }
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new BadRequestException(`Column ${name} appears twice`);
    seen.add(name);
  }
}

async function* csvRows(body: Readable, columns: ImportColumns): AsyncGenerator<StoredImportRow> {
  const parser = body.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true }));
  body.on('error', (error) => parser.destroy(error));
  let header: string[] | undefined;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((name) => name.trim());
        checkHeader(header, columns);
        continue;
      }
      yield csvRow(header, record, columns, ++row);
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('CSV_')) {
      throw new BadRequestException(`Malformed CSV: ${(error as Error).message}`);
    }
    throw error;
  }
  if (!header) throw new BadRequestException('A CSV import starts with a header row of field names');
}

/** The lines of a stream (`\n` or `\r\n`), each as it completes; a stream's error is thrown here. */
async function* linesOf(body: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/**
 * One JSON object a line, validated as the resource's POST validates its body: an unknown property fails its row,
 * a field the API only answers with (`id`, `teamId`, `code`, `createdAt`…) too (CONTRACT "Validation": output-only
 * properties are unknown in a body). Only a CSV's output-only columns are ignored (an export's columns).
 */
async function* ndjsonRows(body: Readable): AsyncGenerator<StoredImportRow> {
  let row = 0;
  for await (const line of linesOf(body)) {
    if (line.trim() === '') continue;
    row++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      yield { row, body: null, parseError: 'The line is not valid JSON' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { row, body: null, parseError: 'The line must be a JSON object' };
      continue;
    }
    yield { row, body: value as Record<string, unknown>, parseError: null };
  }
}

/**
 * Reads an import's body as it streams in, handing its rows to `write` `RECEIVE_BATCH` at a time (never the whole
 * body in memory); the number of rows. Refuses a body over the limits (413), a CSV with an unknown column or
 * malformed (400), or not text in its `encoding` (400: never stored with U+FFFD in place of what it sent). CSV cells
 * become the fields' JSON values by the one rule for CSV cells (`csvValueOf`).
 */
export async function receiveImportRows(
  body: Readable,
  format: ImportFormat,
  columns: ImportColumns,
  write: (rows: StoredImportRow[]) => Promise<void>,
  encoding = 'utf-8',
): Promise<number> {
  const within = limited(body);
  const source = asUtf8(within, encoding);
  const rows = format === 'csv' ? csvRows(source, columns) : ndjsonRows(source);
  let batch: StoredImportRow[] = [];
  let total = 0;
  for await (const row of rows) {
    if (++total > MAX_IMPORT_ROWS) {
      // Both streams between the body and the rows, so that the rest of the body drains.
      source.destroy();
      within.destroy();
      body.resume();
      throw tooManyRows();
    }
    batch.push(row);
    if (batch.length === RECEIVE_BATCH) {
      await write(batch);
      batch = [];
    }
  }
  await write(batch);
  return total;
}
