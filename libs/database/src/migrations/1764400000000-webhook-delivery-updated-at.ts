import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries get `updated_at`, so their list takes `sort` and `updatedSince` like every list: a trigger
 * moves it on every change (an attempt, a retry), whichever instance or statement makes it. And the
 * dispatcher's fair claim (each team's due deliveries numbered oldest first) gets an index in that order, so
 * the numbering reads them already sorted instead of sorting every due delivery.
 */
export class WebhookDeliveryUpdatedAt1764400000000 implements MigrationInterface {
  name = 'WebhookDeliveryUpdatedAt1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN updated_at timestamptz(3)`);
    await db.query(`UPDATE webhook_deliveries SET updated_at = created_at`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN updated_at SET NOT NULL`);
    await db.query(`
      CREATE FUNCTION webhook_deliveries_touch() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        NEW.updated_at := CASE
          WHEN TG_OP = 'INSERT' THEN coalesce(NEW.updated_at, NEW.created_at)
          ELSE greatest(clock_timestamp(), OLD.updated_at + interval '1 millisecond')
        END;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE TRIGGER webhook_deliveries_touch
      BEFORE INSERT OR UPDATE ON webhook_deliveries
      FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_touch()`);
    await db.query(
      `CREATE INDEX webhook_deliveries_endpoint_updated_idx
         ON webhook_deliveries (team_id, endpoint_id, updated_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX webhook_deliveries_team_due_idx
         ON webhook_deliveries (team_id, next_attempt_at, id) WHERE state = 'pending'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_team_due_idx`);
    await db.query(`DROP INDEX webhook_deliveries_endpoint_updated_idx`);
    await db.query(`DROP TRIGGER webhook_deliveries_touch ON webhook_deliveries`);
    await db.query(`DROP FUNCTION webhook_deliveries_touch()`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN updated_at`);
  }
}
