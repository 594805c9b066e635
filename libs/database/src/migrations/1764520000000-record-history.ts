import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every record's history (CONTRACT "History of every record", docs/history.md): one row per change, written by the
 * statement that records the change's event (EventsStore.record), so the two can never disagree. `seq` is that
 * event's number in its team (commit order); `id` the event's id. Kept as long as the record lives: a record's
 * `.deleted` event deletes its rows, and the events' 30-day cleanup never touches this table. The primary key is
 * the index of the one question it answers, a record's entries newest first (scanned backwards), and the only
 * index a write maintains.
 */
export class RecordHistory1764520000000 implements MigrationInterface {
  name = 'RecordHistory1764520000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE record_history (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        record text NOT NULL,
        record_id uuid NOT NULL,
        seq bigint NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        at timestamptz(3) NOT NULL,
        actor jsonb NOT NULL,
        changes jsonb,
        subject_id uuid,
        PRIMARY KEY (team_id, record, record_id, seq)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE record_history`);
  }
}
