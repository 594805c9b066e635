import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { analyzeAfterBulkWrite, Clock, Transactions } from '@app/common';
import { EventsStore } from '../events/index.js';
import { ImportResponse } from './dto/import.response.js';
import { importTargetOf, isImportResource } from './import-resources.js';
import { ImportRowError, ImportRowWriter, type ImportScope } from './import-row-writer.js';
import {
  ImportsRepository,
  type ImportErrorRow,
  type ImportStatus,
  type StoredImportRow,
} from './imports.repository.js';

/** Rows written per transaction. */
export const IMPORT_BATCH_ROWS = 100;
/** A claim holds an import this long; every committed batch renews it. A runner that dies loses it after this. */
export const IMPORT_LEASE_MS = 60_000;
/**
 * Claims in a row that committed no batch (each runner died or its batch kept failing) before the import is given
 * up as `failed`: it could not run. A batch that commits resets the count, so restarts alone never fail an import.
 */
export const IMPORT_MAX_FRUITLESS_CLAIMS = 5;
/** How often each instance looks for waiting imports (a POST on this instance wakes it at once). */
const POLL_MS = 1_000;

/** An import a runner holds. */
export interface ClaimedImport {
  teamId: string;
  id: string;
  /** Claims in a row, this one included, that have not committed a batch yet. */
  claimsWithoutProgress?: number;
}

export type BatchOutcome = 'more' | 'done' | 'stopped';

/**
 * Runs imports in the background, on every instance (CONTRACT "Imports and exports"), as the webhook dispatcher
 * sends deliveries: the oldest waiting import is claimed with a lease (`FOR UPDATE SKIP LOCKED`), so instances
 * never take the same one; a runner that dies (a crash, a kill) loses its lease and another instance, or this one
 * after a restart, takes the import over.
 *
 * Each batch is ONE transaction that locks the import's row, reads its progress (`processed_rows`), writes the next
 * `IMPORT_BATCH_ROWS` rows (records, their events and history entries), the failed rows' errors and the new
 * progress, and commits: a restart resumes exactly after the last committed batch, and two runners on one import
 * take batches in turns, never the same rows. A failing row is rolled back to its own savepoint and reported; a dry
 * run rolls the whole batch's writes back and keeps only the counts. The last batch sets the final status and
 * writes `import.completed`; a cancel (which takes the same row lock) stops the next batch.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger('Imports');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private closed = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly imports: ImportsRepository,
    private readonly writer: ImportRowWriter,
    private readonly transactions: Transactions,
    private readonly events: EventsStore,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Stops after the batch under way; the import waits for its lease to run out, or for this instance's restart. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Looks for waiting imports now (after a POST), or once more after the run under way. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: Error) => this.log.warn(`import run failed: ${error.message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Waits until no import is being run by this instance (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let claimed = await this.claim(); claimed && !this.closed; claimed = await this.claim()) {
      await this.run(claimed);
    }
  }

  /** Leases the oldest waiting import of any team. */
  claim(): Promise<ClaimedImport | undefined> {
    const now = this.clock.now();
    return this.imports.claim(new Date(now), new Date(now + IMPORT_LEASE_MS));
  }

  /** Runs a claimed import's batches until it ends, is cancelled, or this instance stops. */
  async run(claimed: ClaimedImport): Promise<void> {
    if ((claimed.claimsWithoutProgress ?? 0) > IMPORT_MAX_FRUITLESS_CLAIMS) {
      this.log.warn(`import ${claimed.id}: no batch committed in ${IMPORT_MAX_FRUITLESS_CLAIMS} claims; failed`);
      await this.transactions.run((manager) => this.finish(manager, claimed.teamId, claimed.id, 'failed'));
      return;
    }
    let outcome: BatchOutcome = 'more';
    try {
      while (outcome === 'more' && !this.closed) outcome = await this.runBatch(claimed);
    } catch (error) {
      // A batch that failed as a whole (the database away, a statement timeout) rolled back: the import is claimed
      // again after a pause that doubles with each fruitless claim (1 s, 2 s, … up to the lease), not after the
      // whole lease; IMPORT_MAX_FRUITLESS_CLAIMS in a row give it up as failed.
      const pauseMs = Math.min(IMPORT_LEASE_MS, 1_000 * 2 ** Math.max(0, (claimed.claimsWithoutProgress ?? 1) - 1));
      this.log.warn(`import ${claimed.id}: a batch failed (${(error as Error).message}); retried in ${pauseMs} ms`);
      await this.imports
        .releaseLease(claimed.teamId, claimed.id, new Date(this.clock.now() + pauseMs))
        .catch(() => undefined);
    }
  }

  /** One batch, in one transaction: 'more' to come, 'done' (final status written), or 'stopped' (not running). */
  async runBatch(claimed: ClaimedImport, size = IMPORT_BATCH_ROWS): Promise<BatchOutcome> {
    const { teamId, id } = claimed;
    let analyze: { table: string; rows: number } | undefined;
    const outcome = await this.transactions.run(async (manager): Promise<BatchOutcome> => {
      const current = await this.imports.findOne(teamId, id, { manager, lock: true });
      if (!current || current.status !== 'running') return 'stopped';
      if (!isImportResource(current.resource)) {
        await this.finish(manager, teamId, id, 'failed');
        return 'done';
      }
      const rows = await this.imports.rowsAfter(manager, teamId, id, current.processedRows, size);
      const base = { teamId, importId: id, resource: current.resource, importedAt: current.createdAt };
      const scope: ImportScope & { known: Map<string, string> } = {
        ...base,
        known: await this.writer.knownRecords(manager, base, rows),
        referenced: await this.writer.referencedRecords(manager, base, rows),
      };
      const counts = { processed: rows.length, created: 0, updated: 0, failed: 0 };
      const errors: ImportErrorRow[] = [];
      // A dry run first writes again, uncounted, what its earlier batches' rows made that this batch names.
      let replayed: StoredImportRow[] = [];
      if (current.dryRun) {
        await this.imports.savepoint(manager, 'SAVEPOINT', 'import_batch');
        replayed = await this.earlierWrites(manager, scope, current.processedRows, rows);
      }
      // Each row runs after a savepoint of its own: a failed row is rolled back to it (which keeps the savepoint
      // for the next row), a written one is released and the next one set in the same round trip.
      await this.imports.savepoint(manager, 'SAVEPOINT', 'import_row');
      for (const [index, row] of [...replayed, ...rows].entries()) {
        const counted = index >= replayed.length;
        const ref = typeof row.body?.externalRef === 'string' ? row.body.externalRef.trim() : '';
        const knownBefore = scope.known.has(ref);
        try {
          const outcome = await this.writer.write(manager, scope, row);
          if (counted) counts[outcome]++;
          await this.imports.savepoint(manager, 'RELEASE SAVEPOINT', 'import_row', { again: true });
        } catch (error) {
          await this.imports.savepoint(manager, 'ROLLBACK TO SAVEPOINT', 'import_row');
          // What the row created is gone with it.
          if (!knownBefore) scope.known.delete(ref);
          if (!(error instanceof ImportRowError)) throw error;
          // A replayed row refused this time (it passed in its own batch): the batch goes on from what is there.
          if (!counted) continue;
          counts.failed++;
          errors.push({ row: row.row, externalRef: ref === '' ? null : ref, error: error.message });
        }
      }
      // A dry run validated and wrote every row as the real one would, and keeps nothing but what it found.
      if (current.dryRun) await this.imports.savepoint(manager, 'ROLLBACK TO SAVEPOINT', 'import_batch');
      await this.imports.insertErrors(manager, teamId, id, errors);
      await this.imports.progress(manager, teamId, id, counts, new Date(this.clock.now() + IMPORT_LEASE_MS));
      if (current.processedRows + rows.length < current.totalRows && rows.length > 0) return 'more';
      await this.finish(manager, teamId, id, 'succeeded');
      const written = current.createdCount + current.updatedCount + counts.created + counts.updated;
      if (!current.dryRun) analyze = { table: importTargetOf(current.resource).table, rows: written };
      return 'done';
    });
    // After the commit: the next statements are planned for the table's new size (bulk-writes.ts).
    if (analyze) await analyzeAfterBulkWrite(this.db, [analyze.table], analyze.rows);
    return outcome;
  }

  /**
   * A dry run rolls each batch back, so a record an earlier batch's row created is not there for a later row that
   * names the same `externalRef`, which the real run would write as an update. The earlier rows that made such
   * records (those that did not fail, in order) are written again before the batch, uncounted and rolled back with
   * it: the dry run reports the counts the real run will have.
   */
  private async earlierWrites(
    manager: EntityManager,
    scope: ImportScope & { known: Map<string, string> },
    through: number,
    rows: StoredImportRow[],
  ): Promise<StoredImportRow[]> {
    const refs = new Set<string>();
    for (const row of rows) {
      const ref = typeof row.body?.externalRef === 'string' ? row.body.externalRef.trim() : '';
      if (ref !== '' && !scope.known.has(ref)) refs.add(ref);
    }
    if (refs.size === 0 || through === 0) return [];
    return this.imports.earlierWrites(manager, scope.teamId, scope.importId, through, [...refs]);
  }

  /** Sets a final status and announces it (`import.completed`), in the caller's transaction; false if already final. */
  async finish(manager: EntityManager, teamId: string, id: string, status: ImportStatus): Promise<boolean> {
    if (!(await this.imports.finish(manager, teamId, id, status, new Date(this.clock.now())))) return false;
    const row = await this.imports.findOne(teamId, id, { manager });
    if (row) await this.events.record(manager, teamId, 'import.completed', ImportResponse.from(row));
    return true;
  }
}
