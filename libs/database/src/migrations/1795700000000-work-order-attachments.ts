import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attachments of work orders (CONTRACT "Attachments (photos and documents)"): rows of the team, under their work order
 * (ON DELETE CASCADE) and optionally a note of it (deleting the note sets only `note_id` to null). Their bytes live
 * in the object storage under `storage_key`.
 *
 * `attachment_objects` is the storage's to-do list, kept in PostgreSQL so any instance can work it: an `upload`
 * entry is committed before an object is written and removed in the transaction that commits its row (an entry
 * left behind is an upload whose row never committed); the trigger adds a `deleted` entry for every attachment row
 * deleted, a work order's cascade included. The cleanup removes each entry's object, then the entry.
 */
export class WorkOrderAttachments1795700000000 implements MigrationInterface {
  name = 'WorkOrderAttachments1795700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE work_order_attachments (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        work_order_id uuid NOT NULL,
        note_id uuid,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL,
        sha256 text NOT NULL,
        description text,
        storage_key text NOT NULL,
        created_by jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, work_order_id) REFERENCES work_orders (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, note_id) REFERENCES work_order_notes (team_id, id) ON DELETE SET NULL (note_id)
      )`);
    await db.query(
      `CREATE INDEX work_order_attachments_work_order_created_idx
         ON work_order_attachments (team_id, work_order_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX work_order_attachments_note_idx
         ON work_order_attachments (team_id, note_id, created_at, id) WHERE note_id IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE attachment_objects (
        storage_key text PRIMARY KEY,
        reason text NOT NULL CHECK (reason IN ('upload', 'deleted')),
        since timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE FUNCTION attachment_object_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO attachment_objects (storage_key, reason) VALUES (OLD.storage_key, 'deleted')
          ON CONFLICT (storage_key) DO UPDATE SET reason = 'deleted';
        RETURN OLD;
      END $$`);
    await db.query(`
      CREATE TRIGGER work_order_attachments_deleted AFTER DELETE ON work_order_attachments
        FOR EACH ROW EXECUTE FUNCTION attachment_object_deleted()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE work_order_attachments`);
    await db.query(`DROP FUNCTION attachment_object_deleted()`);
    await db.query(`DROP TABLE attachment_objects`);
  }
}
