import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { Clock, ConflictError, pageOf, RecordNotFoundError, Transactions, type Page } from '@app/common';
import { ImportErrorResponse, ImportResponse } from './dto/import.response.js';
import { ResourceCsvs } from '../exports/index.js';
import { receiveImportRows, type ImportFormat } from './import-receiver.js';
import type { ImportResource } from './import-resources.js';
import { ImportRunner } from './import-runner.js';
import { FINAL_STATUSES, ImportsRepository } from './imports.repository.js';

@Injectable()
export class ImportsService {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly runner: ImportRunner,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly csvs: ResourceCsvs,
  ) {}

  /**
   * Streams the body's rows into `import_rows` (batched inserts) and commits the import as `queued`, all in one
   * transaction (the request's, with an Idempotency-Key): a refused or broken body leaves nothing behind. The body
   * was received whole before (`ReceiveImportGuard`) and is read here from its file, so the transaction does not
   * wait for the client. The job (ImportRunner) then runs it on any instance.
   */
  async create(
    teamId: string,
    resource: ImportResource,
    dryRun: boolean,
    format: ImportFormat,
    body: Readable,
    encoding = 'utf-8',
  ): Promise<ImportResponse> {
    const columns = this.csvs.importColumnsOf(resource);
    if (!columns) throw new Error(`${resource} has no CSV columns`);
    const id = randomUUID();
    const created = await this.transactions.run(async (manager) => {
      await this.imports.insert(manager, teamId, {
        id,
        resource,
        format,
        dryRun,
        createdAt: new Date(this.clock.now()),
      });
      const total = await receiveImportRows(
        body,
        format,
        columns,
        (rows) => this.imports.insertRows(manager, teamId, id, rows),
        encoding,
      );
      await this.imports.setTotal(manager, teamId, id, total);
      return this.get(teamId, id);
    });
    // Committed by now unless the request's own transaction commits later: then the next poll finds it.
    setImmediate(() => this.runner.wake());
    return created;
  }

  async list(teamId: string, page: number, pageSize: number): Promise<Page<ImportResponse>> {
    const [rows, total] = await this.imports.list(teamId, page, pageSize);
    return pageOf(rows.map(ImportResponse.from), total, { page, pageSize });
  }

  async get(teamId: string, id: string): Promise<ImportResponse> {
    const row = await this.imports.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Import');
    return ImportResponse.from(row);
  }

  async errors(teamId: string, id: string, page: number, pageSize: number): Promise<Page<ImportErrorResponse>> {
    await this.get(teamId, id);
    const [rows, total] = await this.imports.errors(teamId, id, page, pageSize);
    return pageOf(rows, total, { page, pageSize });
  }

  /** Stops an import that has not finished (rows already written stay); a finished one is a 409. */
  async cancel(teamId: string, id: string): Promise<ImportResponse> {
    return this.transactions.run(async (manager) => {
      const current = await this.imports.findOne(teamId, id, { manager, lock: true });
      if (!current) throw new RecordNotFoundError('Import');
      if (FINAL_STATUSES.includes(current.status)) {
        throw new ConflictError(
          `The import has already finished (${current.status}); only a queued or running one can be cancelled`,
        );
      }
      await this.runner.finish(manager, teamId, id, 'cancelled');
      return this.get(teamId, id);
    });
  }
}
