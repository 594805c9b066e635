import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's "Test mode" switch (issue 26): whether a session shows the team's sandbox. It is kept with the
 * session, so it survives navigation and every instance sees it; a new session (every sign-in) starts in live mode.
 */
export class DashboardTestMode1795910000000 implements MigrationInterface {
  name = 'DashboardTestMode1795910000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE dashboard_sessions ADD COLUMN test_mode boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE dashboard_sessions DROP COLUMN test_mode`);
  }
}
