import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, teamSelect, teamStatement, teamUpdate, unscopedStatement } from '@app/common';

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const FINAL_STATUSES: readonly ImportStatus[] = ['succeeded', 'failed', 'cancelled'];

/** An import's row (camelCased). */
export interface ImportRow {
  id: string;
  teamId: string;
  resource: string;
  format: 'csv' | 'ndjson';
  status: ImportStatus;
  dryRun: boolean;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  updatedCount: number;
  failedCount: number;
  lockedUntil: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A row as received: its JSON fields, or why its line could not be read. */
export interface StoredImportRow {
  row: number;
  body: Record<string, unknown> | null;
  parseError: string | null;
}

export interface ImportErrorRow {
  row: number;
  externalRef: string | null;
  error: string;
}

const COLUMNS = `i.id, i.team_id AS "teamId", i.resource, i.format, i.status, i.dry_run AS "dryRun",
  i.total_rows AS "totalRows", i.processed_rows AS "processedRows", i.created_count AS "createdCount",
  i.updated_count AS "updatedCount", i.failed_count AS "failedCount", i.locked_until AS "lockedUntil",
  i.created_at AS "createdAt", i.started_at AS "startedAt", i.finished_at AS "finishedAt"`;

/** Why the job's claim skips the team-scoped builders (docs/architecture.md, "Team isolation"). */
const CLAIM_WHY = 'the import job serves every team’s queued imports, oldest first; the claim names the row it locks';

/**
 * The statements over `imports`, `import_rows` and `import_errors`. Team-scoped, but for the job's claim, which
 * takes the oldest waiting import of any team (like the webhook queue).
 */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.db.manager;
  }

  async insert(
    manager: EntityManager,
    teamId: string,
    values: { id: string; resource: string; format: string; dryRun: boolean; createdAt: Date },
  ): Promise<void> {
    await teamStatement(
      manager,
      teamId,
      `INSERT INTO imports (team_id, id, resource, format, status, dry_run, created_at)
       VALUES ($1, $2, $3, $4, 'queued', $5, $6)`,
      [values.id, values.resource, values.format, values.dryRun, values.createdAt],
      { why: 'an insert of one row whose team_id is $1' },
    );
  }

  /** A batch of received rows, in one statement. */
  async insertRows(manager: EntityManager, teamId: string, importId: string, rows: StoredImportRow[]): Promise<void> {
    if (rows.length === 0) return;
    await teamStatement(
      manager,
      teamId,
      `INSERT INTO import_rows (team_id, import_id, row_number, body, parse_error)
       SELECT $1, $2, r.n, r.b, r.e FROM unnest($3::int[], $4::jsonb[], $5::text[]) AS r (n, b, e)`,
      [
        importId,
        rows.map((row) => row.row),
        rows.map((row) => (row.body === null ? null : JSON.stringify(row.body))),
        rows.map((row) => row.parseError),
      ],
      { why: 'every row inserted carries $1 as its team' },
    );
  }

  async setTotal(manager: EntityManager, teamId: string, importId: string, total: number): Promise<void> {
    await teamUpdate(manager, teamId, { table: 'imports i', set: 'total_rows = $3', where: 'i.id = $2' }, [
      importId,
      total,
    ]);
  }

  async findOne(teamId: string, id: string, options: { manager?: EntityManager; lock?: boolean } = {}) {
    const [row] = await teamSelect<ImportRow>(
      this.manager(options.manager),
      teamId,
      { from: 'imports i', columns: COLUMNS, where: 'i.id = $2', lock: options.lock ? 'FOR UPDATE' : undefined },
      [id],
    );
    return row as ImportRow | undefined;
  }

  async list(teamId: string, page: number, pageSize: number): Promise<[ImportRow[], number]> {
    const manager = this.manager();
    const rows = await teamSelect<ImportRow>(
      manager,
      teamId,
      { from: 'imports i', columns: COLUMNS, orderBy: 'i.created_at DESC, i.id DESC', limit: '$2 OFFSET $3' },
      [pageSize, (page - 1) * pageSize],
    );
    const [{ n }] = await teamSelect<{ n: number }>(manager, teamId, {
      from: 'imports i',
      columns: 'count(*)::int AS n',
    });
    return [rows, n];
  }

  async errors(teamId: string, importId: string, page: number, pageSize: number): Promise<[ImportErrorRow[], number]> {
    const manager = this.manager();
    const rows = await teamSelect<ImportErrorRow>(
      manager,
      teamId,
      {
        from: 'import_errors e',
        columns: 'e.row_number AS row, e.external_ref AS "externalRef", e.error',
        where: 'e.import_id = $2',
        orderBy: 'e.row_number',
        limit: '$3 OFFSET $4',
      },
      [importId, pageSize, (page - 1) * pageSize],
    );
    const [{ n }] = await teamSelect<{ n: number }>(
      manager,
      teamId,
      { from: 'import_errors e', columns: 'count(*)::int AS n', where: 'e.import_id = $2' },
      [importId],
    );
    return [rows, n];
  }

  /** The rows after `after` (row numbers from 1), in order. */
  rowsAfter(manager: EntityManager, teamId: string, importId: string, after: number, limit: number) {
    return teamSelect<StoredImportRow>(
      manager,
      teamId,
      {
        from: 'import_rows r',
        columns: 'r.row_number AS row, r.body, r.parse_error AS "parseError"',
        where: 'r.import_id = $2 AND r.row_number > $3',
        orderBy: 'r.row_number',
        limit: '$4',
      },
      [importId, after, limit],
    );
  }

  /**
   * A dry run's earlier rows (numbered up to `through`) that name one of `refs` by `externalRef` and did not fail:
   * what they would have written by now, in order (a dry run keeps nothing from one batch to the next).
   */
  earlierWrites(manager: EntityManager, teamId: string, importId: string, through: number, refs: string[]) {
    return teamSelect<StoredImportRow>(
      manager,
      teamId,
      {
        from: 'import_rows r',
        columns: 'r.row_number AS row, r.body, r.parse_error AS "parseError"',
        where: `r.import_id = $2 AND r.row_number <= $3 AND r.parse_error IS NULL
          AND btrim(r.body ->> 'externalRef') = ANY ($4::text[])
          AND NOT EXISTS (SELECT 1 FROM import_errors e
                           WHERE e.team_id = $1 AND e.import_id = $2 AND e.row_number = r.row_number)`,
        orderBy: 'r.row_number',
      },
      [importId, through, refs],
    );
  }

  async insertErrors(
    manager: EntityManager,
    teamId: string,
    importId: string,
    errors: ImportErrorRow[],
  ): Promise<void> {
    if (errors.length === 0) return;
    await teamStatement(
      manager,
      teamId,
      `INSERT INTO import_errors (team_id, import_id, row_number, external_ref, error)
       SELECT $1, $2, e.n, e.r, e.t FROM unnest($3::int[], $4::text[], $5::text[]) AS e (n, r, t)`,
      [importId, errors.map((e) => e.row), errors.map((e) => e.externalRef), errors.map((e) => e.error)],
      { why: 'every row inserted carries $1 as its team' },
    );
  }

  /** A batch's progress, the lease renewed. */
  async progress(
    manager: EntityManager,
    teamId: string,
    importId: string,
    counts: { processed: number; created: number; updated: number; failed: number },
    leaseUntil: Date,
  ): Promise<void> {
    await teamUpdate(
      manager,
      teamId,
      {
        table: 'imports i',
        set: `processed_rows = processed_rows + $3, created_count = created_count + $4,
              updated_count = updated_count + $5, failed_count = failed_count + $6, locked_until = $7,
              claims_without_progress = 0`,
        where: 'i.id = $2',
      },
      [importId, counts.processed, counts.created, counts.updated, counts.failed, leaseUntil],
    );
  }

  /** Lets any runner claim a running import again from `at` (a batch that failed: it is retried, not waited out). */
  async releaseLease(teamId: string, importId: string, at: Date): Promise<void> {
    await teamUpdate(
      this.db.manager,
      teamId,
      { table: 'imports i', set: 'locked_until = $3', where: "i.id = $2 AND i.status = 'running'" },
      [importId, at],
    );
  }

  /** Sets a final status (`succeeded`, `failed`, `cancelled`) of an import not already final; its rows are dropped. */
  async finish(manager: EntityManager, teamId: string, importId: string, status: ImportStatus, at: Date) {
    const [row] = await teamUpdate<{ id: string }>(
      manager,
      teamId,
      {
        table: 'imports i',
        set: 'status = $3, finished_at = $4, locked_until = NULL',
        where: `i.id = $2 AND i.status IN ('queued', 'running')`,
        returning: 'i.id',
      },
      [importId, status, at],
    );
    if (!row) return false;
    await teamStatement(manager, teamId, 'DELETE FROM import_rows WHERE team_id = $1 AND import_id = $2', [importId], {
      why: 'a delete of the team’s own rows (team_id = $1)',
    });
    return true;
  }

  /**
   * Leases the oldest import waiting to run (queued, or running with its lease run out: its runner died), of any
   * team, until `leaseUntil`; `FOR UPDATE SKIP LOCKED`, so instances never claim the same one.
   */
  async claim(
    now: Date,
    leaseUntil: Date,
  ): Promise<{ teamId: string; id: string; claimsWithoutProgress: number } | undefined> {
    const [row] = await unscopedStatement<{ teamId: string; id: string; claimsWithoutProgress: number }>(
      this.db.manager,
      `WITH next AS (
         SELECT team_id, id FROM imports
          WHERE status IN ('queued', 'running') AND (locked_until IS NULL OR locked_until <= $1)
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE imports i SET status = 'running', started_at = COALESCE(i.started_at, $1), locked_until = $2,
                claims_without_progress = i.claims_without_progress + 1
           FROM next WHERE i.team_id = next.team_id AND i.id = next.id
         RETURNING i.team_id, i.id, i.claims_without_progress)
       SELECT team_id AS "teamId", id, claims_without_progress AS "claimsWithoutProgress" FROM claimed`,
      [now, leaseUntil],
      { why: CLAIM_WHY },
    );
    return row;
  }

  /**
   * `SAVEPOINT`, `RELEASE SAVEPOINT` or `ROLLBACK TO SAVEPOINT` `name`: one row's (or a dry run's batch's) writes.
   * `again`: a release followed by a new savepoint of the same name, in one round trip (two statements of the
   * simple protocol: no parameters).
   */
  async savepoint(
    manager: EntityManager,
    action: 'SAVEPOINT' | 'RELEASE SAVEPOINT' | 'ROLLBACK TO SAVEPOINT',
    name: string,
    { again = false } = {},
  ) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
    const text = again ? `${action} ${name}; SAVEPOINT ${name}` : `${action} ${name}`;
    await unscopedStatement(manager, text, [], { why: 'a savepoint of the transaction, no table' });
  }

  /** The ids of a table's records named by external ids, in the team. */
  async idsByExternalRef(
    manager: EntityManager,
    teamId: string,
    table: string,
    refs: string[],
  ): Promise<Map<string, string>> {
    const rows = await teamSelect<{ id: string; ref: string }>(
      manager,
      teamId,
      { from: `${table} t`, columns: 't.id, t.external_ref AS ref', where: 't.external_ref = ANY($2::text[])' },
      [refs],
    );
    return new Map(rows.map((row) => [row.ref, row.id]));
  }
}
