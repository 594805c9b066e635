import { MigrationInterface, QueryRunner } from 'typeorm';

/** The resources' tables in 1764500000000; a resource generated later has the column in its own migration. */
const TABLES = ['contractors', 'units', 'tenants', 'work_orders', 'landlords'];

/**
 * External references (issue 23): `externalRef` on every resource, the id a record has in the integrator's own
 * system. Unique per team and table, by a partial unique index that also serves the lists' `externalRef` filter.
 * Its name, `<table>_external_ref_key`, is how a violation is recognised and answered as a 409
 * (libs/common/src/persistence/external-ref-conflict.ts). The column is nullable with no default, so adding it
 * rewrites no row; the index covers no row yet.
 */
export class ExternalRefs1764500000000 implements MigrationInterface {
  name = 'ExternalRefs1764500000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN external_ref text`);
      await db.query(
        `CREATE UNIQUE INDEX ${table}_external_ref_key ON ${table} (team_id, external_ref) WHERE external_ref IS NOT NULL`,
      );
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await db.query(`ALTER TABLE ${table} DROP COLUMN external_ref`);
    }
  }
}
