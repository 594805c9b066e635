import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox behind `GET /v1/events` (and, later, webhooks): one row per committed change, written
 * in the same transaction as the change. `seq` numbers a team's events in commit order: it is taken from
 * `event_sequences` by an UPDATE whose row lock is held until the transaction ends, as the transaction's last
 * write, so no transaction of the team can take the next number before the previous one committed (or rolled
 * back, and then its number is taken again: the sequence has no gaps). See docs/events.md.
 */
export class Events1764200000000 implements MigrationInterface {
  name = 'Events1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE event_sequences (
        team_id uuid PRIMARY KEY REFERENCES teams (id) ON DELETE CASCADE,
        last_seq bigint NOT NULL
      )`);
    await db.query(`
      CREATE TABLE events (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (team_id, seq)
      )`);
    await db.query(`CREATE UNIQUE INDEX events_id_uq ON events (team_id, id)`);
    await db.query(`CREATE INDEX events_type_idx ON events (team_id, type, seq)`);
    await db.query(`CREATE INDEX events_created_at_idx ON events (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE events`);
    await db.query(`DROP TABLE event_sequences`);
  }
}
