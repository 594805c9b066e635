import {
  Injectable,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { Readable } from 'node:stream';
import { lastValueFrom, of, type Observable } from 'rxjs';
import { AppConfig, Clock, inListBatch, type BatchKey, type ListBatch, type Page } from '@app/common';
import { csvRowsOf, csvHeaderOf } from './csv-text.js';
import { ResourceCsvs } from './resource-csvs.js';
import type { CsvColumn, ResponseRecord } from '../csv/index.js';

/** The handler metadata naming the resource a list exports (set by ExportsModule on each collection's list). */
export const CSV_EXPORT = 'ppa:csv-export';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** `Accept: text/csv` preferred over JSON (a bare `*\/*` or no Accept keeps the JSON list). */
export function wantsCsv(request: Request): boolean {
  return request.method === 'GET' && request.accepts(['application/json', 'text/csv']) === 'text/csv';
}

type ReadBatch = (after: BatchKey | undefined) => Promise<{ records: ResponseRecord[]; last?: BatchKey }>;

/** The CSV text: the header row, then the records of each batch as the stream's reader asks for them. */
async function* csvChunks(
  columns: CsvColumn[],
  batchSize: number,
  first: Awaited<ReturnType<ReadBatch>>,
  readBatch: ReadBatch,
): AsyncGenerator<string> {
  yield csvHeaderOf(columns);
  let batch = first;
  for (;;) {
    if (batch.records.length > 0) yield csvRowsOf(columns, batch.records);
    if (batch.records.length < batchSize || !batch.last) return;
    batch = await readBatch(batch.last);
  }
}

/**
 * A collection's list answering `Accept: text/csv` (docs/exports.md): every matching record, streamed in keyset
 * batches. The list's own handler reads each batch — its query validated by the same pipes, its service and
 * repository unchanged — while `inListBatch` turns the paging helper's page into the next batch; so the filters,
 * the order and the team scoping are the list's by construction. The first batch is read before answering, so a
 * bad filter is still `400 {error}` in JSON. One request: one read against the rate limit.
 */
@Injectable()
export class CsvExportInterceptor implements NestInterceptor {
  constructor(
    private readonly csvs: ResourceCsvs,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler<Page<ResponseRecord>>): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!wantsCsv(request)) return next.handle();
    const resource = Reflect.getMetadata(CSV_EXPORT, context.getHandler()) as string;
    const csv = this.csvs.of(resource);
    if (!csv) throw new Error(`${resource} has no CSV columns`);
    // `page` and `pageSize` are checked as the list checks them (a bad one is 400), then have no effect: an export
    // holds every page (CONTRACT "Exports"), read in batches of its own size.
    const readBatch: ReadBatch = async (after) => {
      const batch: ListBatch = { size: this.config.EXPORT_BATCH_SIZE, after };
      const page = await inListBatch(batch, () => lastValueFrom(next.handle()));
      return { records: page.data, last: batch.last };
    };
    const first = await readBatch(undefined);
    const date = new Date(this.clock.now()).toISOString().slice(0, 10);
    const stream = Readable.from(csvChunks(csv.exportColumns, this.config.EXPORT_BATCH_SIZE, first, readBatch));
    return of(
      new StreamableFile(stream, {
        type: CSV_CONTENT_TYPE,
        disposition: `attachment; filename="${resource}-${date}.csv"`,
      }),
    );
  }
}
