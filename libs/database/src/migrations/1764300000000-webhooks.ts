import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints and their deliveries: the delivery queue lives in PostgreSQL (no Redis, nothing only in
 * memory). A delivery is written in the same transaction as its event (the outbox fans out to every matching
 * endpoint); instances claim due deliveries with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), and a
 * row trigger wakes them with NOTIFY at commit (one notification per transaction: PostgreSQL folds duplicates; a
 * write with no matching endpoint inserts no row and wakes no one).
 */
export class Webhooks1764300000000 implements MigrationInterface {
  name = 'Webhooks1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        url text NOT NULL,
        description text,
        types text[],
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until timestamptz(3),
        failing_since timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE UNIQUE INDEX webhook_endpoints_id_uq ON webhook_endpoints (id)`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        team_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        endpoint_id uuid NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status integer,
        last_error text,
        next_attempt_at timestamptz(3),
        locked_until timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, endpoint_id) REFERENCES webhook_endpoints (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE UNIQUE INDEX webhook_deliveries_id_uq ON webhook_deliveries (id)`);
    await db.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`,
    );
    await db.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (team_id, endpoint_id, created_at DESC, id DESC)`,
    );
    await db.query(`
      CREATE FUNCTION webhook_deliveries_notify() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('webhook_delivery', '');
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER webhook_deliveries_notify
      AFTER INSERT ON webhook_deliveries
      FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_notify()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`DROP FUNCTION webhook_deliveries_notify()`);
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
