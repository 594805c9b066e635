import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ambientManager, teamDelete, teamUpdate } from '@app/common';

/**
 * Everything of a team that is not a record but goes with its records on a reset. Idempotency records stay: the
 * reset's own may be one of them (docs/test-mode.md).
 */
const WITH_RECORDS = ['record_history', 'imports'];

/** A sandbox's data (`POST /v1/sandbox/reset`): the only SQL of the feature, every statement scoped by team. */
@Injectable()
export class SandboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.db.manager;
  }

  /**
   * Deletes the team's rows of `recordTables` (in that order: a table's rows before those they link to), then its
   * history and imports. Attachment rows leave their objects to the storage cleanup (their
   * trigger lists each one). The team's change version moves, so no list answer remembered before is served again.
   * Its events, event sequence, webhook endpoints, keys and idempotency records stay.
   */
  async empty(teamId: string, recordTables: string[], manager?: EntityManager): Promise<void> {
    const db = this.manager(manager);
    for (const table of [...recordTables, ...WITH_RECORDS]) await teamDelete(db, teamId, { from: table });
    await teamUpdate(db, teamId, { table: 'event_sequences s', set: 'last_seq = s.last_seq' });
  }
}
