import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notes on work orders (CONTRACT "Notes on work orders"): the team leads the key and every index, as on every
 * table. A note belongs to one work order of the same team (the foreign key leads with `team_id`, so it cannot
 * cross teams) and goes with it (ON DELETE CASCADE). The list reads a work order's notes in `created_at, id` order,
 * either direction, from one index; the same index counts them for the 1,000-per-work-order limit. Lengths are
 * checked by the API.
 */
export class WorkOrderNotes1764510000000 implements MigrationInterface {
  name = 'WorkOrderNotes1764510000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE work_order_notes (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        work_order_id uuid NOT NULL,
        text text NOT NULL,
        author_name text,
        created_by jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, work_order_id) REFERENCES work_orders (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(
      `CREATE INDEX work_order_notes_work_order_created_idx
         ON work_order_notes (team_id, work_order_id, created_at, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE work_order_notes`);
  }
}
