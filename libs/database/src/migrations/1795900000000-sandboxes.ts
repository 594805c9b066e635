import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode (CONTRACT "Test mode (sandbox)"): a team's sandbox is a team of its own, linked to its live team by
 * `live_team_id` (one sandbox per team, created on first use, gone with its live team). Every record, event,
 * webhook endpoint, import and key of the sandbox carries the sandbox's id, so the team scoping that separates two
 * teams separates live and test data too.
 */
export class Sandboxes1795900000000 implements MigrationInterface {
  name = 'Sandboxes1795900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE teams
        ADD COLUMN live_team_id uuid UNIQUE REFERENCES teams (id) ON DELETE CASCADE,
        ADD CONSTRAINT teams_sandbox_not_itself CHECK (live_team_id <> id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM teams WHERE live_team_id IS NOT NULL`);
    await db.query(`ALTER TABLE teams DROP CONSTRAINT teams_sandbox_not_itself, DROP COLUMN live_team_id`);
  }
}
