import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, teamDelete, teamUpdate } from '@app/common';

/**
 * What goes with a team's records on a reset and is not one: their history. (Idempotency records stay: the reset's
 * own may be one of them, docs/test-mode.md.)
 */
const WITH_RECORDS = ['record_history'];

/** A sandbox's data (`POST /v1/sandbox/reset`): the only SQL of the feature, every statement scoped by team. */
@Injectable()
export class SandboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.db.manager;
  }

  /**
   * Deletes the team's imports, then its rows of `recordTables` (in that order: a table's rows before those they
   * link to), then their history. Attachment rows leave their objects to the storage cleanup (their
   * trigger lists each one). The team's change version moves, so no list answer remembered before is served again.
   * Its events, event sequence, webhook endpoints, keys and idempotency records stay.
   */
  async empty(teamId: string, recordTables: string[], manager?: EntityManager): Promise<void> {
    const db = this.manager(manager);
    // Imports first: deleting an import waits for the batch a runner may be writing (it holds the import's row) and
    // stops the next one, and the records that batch committed are then seen, and deleted, by the statements below.
    await teamDelete(db, teamId, { from: 'imports' });
    for (const table of [...recordTables, ...WITH_RECORDS]) await teamDelete(db, teamId, { from: table });
    await teamUpdate(db, teamId, { table: 'event_sequences s', set: 'last_seq = s.last_seq' });
  }
}
