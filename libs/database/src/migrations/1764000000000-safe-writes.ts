import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Safe retries and change tracking: the stored answers of requests sent with an `Idempotency-Key` (kept 24 h,
 * then deleted by a scheduled cleanup), and an `updated_at` index per resource so `updatedSince` and
 * `sort=updatedAt` stay index scans on a large team.
 */
export class SafeWrites1764000000000 implements MigrationInterface {
  name = 'SafeWrites1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_keys (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        key varchar(255) NOT NULL,
        method varchar(8) NOT NULL,
        path text NOT NULL,
        fingerprint char(64) NOT NULL,
        status smallint NOT NULL,
        body text NOT NULL,
        entity_tag text,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (team_id, key)
      )`);
    await db.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
    for (const table of ['contractors', 'landlords', 'units', 'tenants', 'work_orders']) {
      await db.query(`CREATE INDEX ${table}_team_updated_idx ON ${table} (team_id, updated_at DESC, id DESC)`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['contractors', 'landlords', 'units', 'tenants', 'work_orders']) {
      await db.query(`DROP INDEX IF EXISTS ${table}_team_updated_idx`);
    }
    await db.query(`DROP TABLE IF EXISTS idempotency_keys`);
  }
}
