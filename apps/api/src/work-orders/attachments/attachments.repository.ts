import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FilterBuilder, isoTimestamp, TeamScopedRepository, type Paging } from '@app/common';
import { WorkOrderAttachment } from './attachment.entity.js';
import type { AttachmentRow } from './attachment.row.js';

@Injectable()
export class AttachmentsRepository extends TeamScopedRepository<WorkOrderAttachment, AttachmentRow> {
  constructor(@InjectRepository(WorkOrderAttachment) repository: Repository<WorkOrderAttachment>) {
    super(repository, 'a', {
      table: 'work_order_attachments',
      columns: `a.id, a.team_id AS "teamId", a.work_order_id AS "workOrderId", a.note_id AS "noteId",
        a.file_name AS "fileName", a.content_type AS "contentType", a.size, a.sha256, a.description,
        a.storage_key AS "storageKey", a.created_by AS "createdBy",
        ${isoTimestamp('a.created_at')} AS "createdAt", ${isoTimestamp('a.updated_at')} AS "updatedAt"`,
    });
  }

  /**
   * An upload's row, once its work order is locked (call `lock` first: then this statement's snapshot holds every
   * attachment committed before it), in one statement: the work order's count under `limit` and the note (if any)
   * one of its notes, the upload's key claimed off the storage's to-do list, and the row inserted — all or nothing.
   * `count` and `noteFound` tell a refusal; no `row` with both fine means the key was no longer listed.
   */
  async attach(
    teamId: string,
    values: Omit<AttachmentRow, 'teamId' | 'createdAt' | 'updatedAt'>,
    limit: number,
  ): Promise<{ count: number; noteFound: boolean; row?: AttachmentRow }> {
    const [result] = await this.statement<AttachmentRow & { count: number; noteFound: boolean }>(
      teamId,
      `WITH checks AS (
         SELECT (SELECT count(*)::int FROM work_order_attachments c
                  WHERE c.team_id = $1 AND c.work_order_id = $3) AS count,
                ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM work_order_notes n
                  WHERE n.team_id = $1 AND n.work_order_id = $3 AND n.id = $4::uuid)) AS note_found),
       claimed AS (
         DELETE FROM attachment_objects o USING checks
          WHERE o.storage_key = $10 AND o.reason = 'upload' AND checks.count < $12 AND checks.note_found
          RETURNING o.storage_key),
       a AS (
         INSERT INTO work_order_attachments
           (team_id, id, work_order_id, note_id, file_name, content_type, size, sha256, description, storage_key,
            created_by)
         SELECT $1, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::text, $7::int, $8::text, $9::text,
                claimed.storage_key, $11::jsonb
           FROM claimed
         RETURNING *)
       SELECT checks.count, checks.note_found AS "noteFound", ${this.shape.columns} FROM checks LEFT JOIN a ON true`,
      [
        values.id,
        values.workOrderId,
        values.noteId,
        values.fileName,
        values.contentType,
        values.size,
        values.sha256,
        values.description,
        values.storageKey,
        JSON.stringify(values.createdBy),
        limit,
      ],
      {
        why:
          "every row read or written is the team's ($1: the attachments counted, the note, the row inserted); the " +
          'claimed key (attachment_objects has no team) is the one the service made for this upload',
        prepared: true,
      },
    );
    const { count, noteFound, ...row } = result;
    return { count, noteFound, row: row.id === null ? undefined : row };
  }

  /** The work order's attachment `id`. */
  async findInWorkOrder(teamId: string, workOrderId: string, id: string): Promise<AttachmentRow | undefined> {
    const rows = await this.select<AttachmentRow>(
      teamId,
      { from: 'work_order_attachments a', columns: this.shape.columns, where: 'a.work_order_id = $2 AND a.id = $3' },
      [workOrderId, id],
      undefined,
      { prepared: true },
    );
    return rows[0];
  }

  /** One page of the work order's attachments, oldest first, and their total. */
  list(teamId: string, workOrderId: string, paging: Paging): Promise<[AttachmentRow[], number]> {
    const filter = new FilterBuilder();
    filter.and(`a.work_order_id = ${filter.bind(workOrderId)}`);
    return this.pageRows(teamId, { page: paging.page, pageSize: paging.pageSize, sort: 'createdAt' }, filter.build());
  }

  /** Deletes the work order's attachment `id` (its object is queued for removal by the table's trigger). */
  async deleteInWorkOrder(teamId: string, workOrderId: string, id: string): Promise<boolean> {
    const rows = await this.deleteWhere<{ id: string }>(
      teamId,
      { from: 'work_order_attachments a', where: 'a.work_order_id = $2 AND a.id = $3', returning: 'a.id' },
      [workOrderId, id],
    );
    return rows.length > 0;
  }
}
