import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Work order counts per team, status and priority, kept by a trigger in the same transaction as every insert,
 * status or priority change and delete. Lists filtered only by status and/or priority (the common case) read
 * their exact total from here instead of counting up to hundreds of thousands of rows per request.
 */
export class WorkOrderCounts1763800000000 implements MigrationInterface {
  name = 'WorkOrderCounts1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE work_order_counts (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        status varchar(16) NOT NULL,
        priority char(1) NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (team_id, status, priority)
      )`);

    // Two changes in one statement take their row locks in key order, so two concurrent opposite moves
    // (reported → in_progress and in_progress → reported) cannot deadlock.
    await db.query(`
      CREATE FUNCTION work_order_counts_apply(team uuid, old_status varchar, old_priority char,
                                              new_status varchar, new_priority char) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO work_order_counts AS c (team_id, status, priority, count)
        SELECT team, change.status, change.priority, change.delta
        FROM (VALUES (old_status, old_priority, -1), (new_status, new_priority, 1)) AS change (status, priority, delta)
        WHERE change.status IS NOT NULL
        ORDER BY change.status, change.priority
        ON CONFLICT (team_id, status, priority) DO UPDATE SET count = c.count + excluded.count;
      END $$`);

    await db.query(`
      CREATE FUNCTION work_order_counts_track() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM work_order_counts_apply(NEW.team_id, NULL, NULL, NEW.status, NEW.priority);
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM work_order_counts_apply(OLD.team_id, OLD.status, OLD.priority, NULL, NULL);
        ELSIF (OLD.status, OLD.priority) IS DISTINCT FROM (NEW.status, NEW.priority) THEN
          PERFORM work_order_counts_apply(NEW.team_id, OLD.status, OLD.priority, NEW.status, NEW.priority);
        END IF;
        RETURN NULL;
      END $$`);

    await db.query(`
      CREATE TRIGGER work_order_counts_track
      AFTER INSERT OR DELETE OR UPDATE OF status, priority ON work_orders
      FOR EACH ROW EXECUTE FUNCTION work_order_counts_track()`);

    await db.query(`
      INSERT INTO work_order_counts (team_id, status, priority, count)
      SELECT team_id, status, priority, count(*) FROM work_orders GROUP BY team_id, status, priority`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER IF EXISTS work_order_counts_track ON work_orders`);
    await db.query(`DROP FUNCTION IF EXISTS work_order_counts_track()`);
    await db.query(`DROP FUNCTION IF EXISTS work_order_counts_apply(uuid, varchar, char, varchar, char)`);
    await db.query(`DROP TABLE IF EXISTS work_order_counts`);
  }
}
