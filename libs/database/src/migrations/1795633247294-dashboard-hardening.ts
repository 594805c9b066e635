import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboard hardening (issue 21): sign-up attempts per client address (the hourly sign-up throttle, counted in
 * PostgreSQL so it holds across instances), a flag for the welcome shown at the first sign-in of an account made by
 * sign-up (sign-up itself no longer signs in: its answer must not tell whether the email had an account), and an
 * index for the cleanup of sessions past their absolute lifetime.
 */
export class DashboardHardening1795633247294 implements MigrationInterface {
  name = 'DashboardHardening1795633247294';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sign_up_attempts (
        client text NOT NULL,
        attempted_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX sign_up_attempts_client_idx ON sign_up_attempts (client, attempted_at)`);
    await db.query(`CREATE INDEX sign_up_attempts_at_idx ON sign_up_attempts (attempted_at)`);
    await db.query(`ALTER TABLE users ADD COLUMN welcome_pending boolean NOT NULL DEFAULT false`);
    await db.query(`CREATE INDEX dashboard_sessions_created_idx ON dashboard_sessions (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX dashboard_sessions_created_idx`);
    await db.query(`ALTER TABLE users DROP COLUMN welcome_pending`);
    await db.query(`DROP TABLE sign_up_attempts`);
  }
}
