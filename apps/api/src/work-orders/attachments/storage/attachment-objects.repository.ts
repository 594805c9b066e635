import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { teamStatement, unscopedStatement } from '@app/common';

/**
 * `attachment_objects`, the storage's to-do list (see the migration): keys the service made itself
 * (`<team id>/<attachment id>`), never read or written by a client, so nothing here is scoped by team.
 */
@Injectable()
export class AttachmentObjectsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Before an upload's object is written, in one statement: lists its key when `workOrderId` is the team's work
   * order, committed at once, outside any request's transaction; false (nothing listed) when it is not.
   */
  async expectUploadTo(teamId: string, workOrderId: string, key: string): Promise<boolean> {
    const rows = await teamStatement<{ storage_key: string }>(
      this.db.manager,
      teamId,
      `INSERT INTO attachment_objects (storage_key, reason)
         SELECT $3, 'upload' FROM work_orders w WHERE w.team_id = $1 AND w.id = $2
       RETURNING storage_key`,
      [workOrderId, key],
      {
        why: "the team's work order as the root table (w.team_id = $1); the key is one the service generated",
        prepared: true,
      },
    );
    return rows.length > 0;
  }

  /** Before an object is written: committed at once, outside any request's transaction. */
  async expectUpload(key: string): Promise<void> {
    await unscopedStatement(
      this.db.manager,
      `INSERT INTO attachment_objects (storage_key, reason) VALUES ($1, 'upload')`,
      [key],
      { why: 'a key the service generated (team id and a new UUID), committed on its own before the upload' },
    );
  }

  /**
   * An upload whose row did not commit: while its key is still listed (locked, so no row can claim it meanwhile),
   * `remove` removes the object, then the entry goes. A key already claimed (its row committed) or already cleaned
   * up is left alone; a failing `remove` leaves the entry for the cleanup.
   */
  async abandonUpload(key: string, remove: () => Promise<void>): Promise<void> {
    await this.db.transaction(async (manager) => {
      const rows = await unscopedStatement<{ storage_key: string }>(
        manager,
        `WITH gone AS (DELETE FROM attachment_objects WHERE storage_key = $1 AND reason = 'upload' RETURNING storage_key)
         SELECT storage_key FROM gone`,
        [key],
        { why: 'the key of the upload this request wrote (team id and its attachment id), its row not committed' },
      );
      if (rows.length > 0) await remove();
    });
  }

  /**
   * Takes up to `limit` keys whose objects must go (deleted rows, and uploads older than `before` whose row never
   * committed) and hands them to `remove`, which removes the objects; the entries go only if it succeeds. Rows
   * another instance is working on are skipped, so instances never wait for each other.
   */
  async drain(before: Date, limit: number, remove: (keys: string[]) => Promise<void>): Promise<number> {
    return this.db.transaction(async (manager) => {
      const rows = await unscopedStatement<{ storage_key: string }>(
        manager,
        `WITH gone AS (
           DELETE FROM attachment_objects WHERE storage_key IN (
             SELECT storage_key FROM attachment_objects
              WHERE reason = 'deleted' OR since < $1
              ORDER BY since LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING storage_key)
         SELECT storage_key FROM gone`,
        [before, limit],
        { why: 'the cleanup over every team: objects no row points at' },
      );
      await remove(rows.map((row) => row.storage_key));
      return rows.length;
    });
  }
}
