import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FilterBuilder, isoTimestamp, TeamScopedRepository } from '@app/common';
import type { ListNotesQuery } from './dto/list-notes.query.js';
import { WorkOrderNote } from './work-order-note.entity.js';
import type { NoteAuthor, WorkOrderNoteRow } from './work-order-note.row.js';

/** What a new note is written with; the database keeps the times. */
export interface NoteInsert {
  id: string;
  workOrderId: string;
  text: string;
  authorName: string | null;
  createdBy: NoteAuthor;
}

@Injectable()
export class WorkOrderNotesRepository extends TeamScopedRepository<WorkOrderNote, WorkOrderNoteRow> {
  constructor(@InjectRepository(WorkOrderNote) repository: Repository<WorkOrderNote>) {
    super(repository, 'n', {
      table: 'work_order_notes',
      // `attachmentIds`: the note's attachments, oldest first (matched on the note's own team).
      columns: `n.id, n.team_id AS "teamId", n.work_order_id AS "workOrderId", n.text, n.author_name AS "authorName",
        n.created_by AS "createdBy",
        ARRAY(SELECT a.id::text FROM work_order_attachments a WHERE a.team_id = n.team_id AND a.note_id = n.id
               ORDER BY a.created_at, a.id) AS "attachmentIds",
        ${isoTimestamp('n.created_at')} AS "createdAt", ${isoTimestamp('n.updated_at')} AS "updatedAt"`,
    });
  }

  /** The work order's note `id`; `lock` (e.g. `FOR UPDATE`) holds it until the transaction ends. */
  async findInWorkOrder(
    teamId: string,
    workOrderId: string,
    id: string,
    lock?: 'FOR UPDATE',
  ): Promise<WorkOrderNoteRow | undefined> {
    const rows = await this.select<WorkOrderNoteRow>(
      teamId,
      {
        from: 'work_order_notes n',
        columns: this.shape.columns,
        where: 'n.work_order_id = $2 AND n.id = $3',
        lock: lock && `${lock} OF n`,
      },
      [workOrderId, id],
      undefined,
      { prepared: true },
    );
    return rows[0];
  }

  /** One page of the work order's notes, oldest first unless `sort` says otherwise, and their total. */
  list(teamId: string, workOrderId: string, query: ListNotesQuery): Promise<[WorkOrderNoteRow[], number]> {
    const filter = new FilterBuilder();
    filter.and(`n.work_order_id = ${filter.bind(workOrderId)}`);
    return this.pageRows(teamId, query, filter.build());
  }

  /** How many notes the work order has (call with the work order locked to decide on a limit). */
  async countInWorkOrder(teamId: string, workOrderId: string): Promise<number> {
    const [row] = await this.select<{ count: number }>(
      teamId,
      { from: 'work_order_notes n', columns: 'count(*)::int AS count', where: 'n.work_order_id = $2' },
      [workOrderId],
      undefined,
      { prepared: true },
    );
    return row.count;
  }

  /**
   * Inserts a note. Its `createdAt` is the transaction's time, or 1 ms after the work order's latest note when that
   * is not earlier: with the work order locked, a conversation lists in the order it was written.
   */
  async insertNote(teamId: string, note: NoteInsert): Promise<void> {
    await this.statement(
      teamId,
      `INSERT INTO work_order_notes (team_id, id, work_order_id, text, author_name, created_by, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, $6, at, at
         FROM (SELECT greatest(now(), max(created_at) + interval '1 millisecond') AS at
                 FROM work_order_notes WHERE team_id = $1 AND work_order_id = $3) latest`,
      [note.id, note.workOrderId, note.text, note.authorName, JSON.stringify(note.createdBy)],
      { why: 'INSERT … SELECT: $1 in the row, and the latest time read from the team’s notes (team_id = $1)' },
    );
  }

  /** Deletes the work order's note `id`; false when it has none. */
  async deleteInWorkOrder(teamId: string, workOrderId: string, id: string): Promise<boolean> {
    const rows = await this.deleteWhere<{ id: string }>(
      teamId,
      { from: 'work_order_notes n', where: 'n.work_order_id = $2 AND n.id = $3', returning: 'n.id' },
      [workOrderId, id],
    );
    return rows.length > 0;
  }
}
