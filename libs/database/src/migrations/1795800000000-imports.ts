import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports (CONTRACT "Imports and exports"): the import itself, its rows as they were received (streamed in by the
 * POST, in batches, before the import is committed as `queued`) and the rows that failed. The job claims an import
 * with a lease (`locked_until`); each batch commits its records, their events and the import's progress
 * (`processed_rows`) together, so a restart resumes after the last committed batch. Rows and errors go with their
 * import (ON DELETE CASCADE), the import with its team.
 */
export class Imports1795800000000 implements MigrationInterface {
  name = 'Imports1795800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE imports (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        resource text NOT NULL,
        format text NOT NULL CHECK (format IN ('csv', 'ndjson')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        dry_run boolean NOT NULL,
        total_rows integer NOT NULL DEFAULT 0,
        processed_rows integer NOT NULL DEFAULT 0,
        created_count integer NOT NULL DEFAULT 0,
        updated_count integer NOT NULL DEFAULT 0,
        failed_count integer NOT NULL DEFAULT 0,
        locked_until timestamptz(3),
        claims_without_progress integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        started_at timestamptz(3),
        finished_at timestamptz(3),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE INDEX imports_team_created_idx ON imports (team_id, created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX imports_waiting_idx ON imports (created_at) WHERE status IN ('queued', 'running')`);
    await db.query(`
      CREATE TABLE import_rows (
        team_id uuid NOT NULL,
        import_id uuid NOT NULL,
        row_number integer NOT NULL,
        body jsonb,
        parse_error text,
        PRIMARY KEY (team_id, import_id, row_number),
        FOREIGN KEY (team_id, import_id) REFERENCES imports (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE import_errors (
        team_id uuid NOT NULL,
        import_id uuid NOT NULL,
        row_number integer NOT NULL,
        external_ref text,
        error text NOT NULL,
        PRIMARY KEY (team_id, import_id, row_number),
        FOREIGN KEY (team_id, import_id) REFERENCES imports (team_id, id) ON DELETE CASCADE
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE import_errors');
    await db.query('DROP TABLE import_rows');
    await db.query('DROP TABLE imports');
  }
}
