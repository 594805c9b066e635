import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FilterBuilder, isoTimestamp, TeamScopedTable, type Paging } from '@app/common';
import type { HistoryEntryRow } from './history-entry.row.js';

const COLUMNS = `h.id, h.type, ${isoTimestamp('h.at')} AS at, h.actor, h.changes, h.subject_id AS "subjectId"`;

/**
 * The records' histories (`record_history`), read here; written only by the statement that records each change's
 * event (EventsStore.record in @app/common), so every write moves the team's change version and pages are
 * remembered by it like a resource's lists.
 */
@Injectable()
export class HistoryRepository extends TeamScopedTable<HistoryEntryRow> {
  constructor(@InjectDataSource() db: DataSource) {
    super(db.manager, 'h', { table: 'record_history', columns: COLUMNS });
  }

  /**
   * One page of a record's entries, newest first: in the reverse of the order their changes committed (the
   * events' numbers), read backwards along the primary key `(team_id, record, record_id, seq)`.
   */
  list(teamId: string, record: string, recordId: string, paging: Paging): Promise<[HistoryEntryRow[], number]> {
    const filter = new FilterBuilder();
    filter.and(`h.record = ${filter.bind(record)}`).and(`h.record_id = ${filter.bind(recordId)}`);
    return this.pageRows(teamId, paging, { ...filter.build(), order: 'h.seq DESC' });
  }
}
