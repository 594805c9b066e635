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
   * Inserts the work order's attachment and answers its row in one prepared statement (`RETURNING` the row's shape):
   * no TypeORM insert to build, no read after it.
   */
  create(teamId: string, values: Omit<AttachmentRow, 'teamId' | 'createdAt' | 'updatedAt'>): Promise<AttachmentRow> {
    return this.insertRow<AttachmentRow>(
      teamId,
      {
        id: values.id,
        work_order_id: values.workOrderId,
        note_id: values.noteId,
        file_name: values.fileName,
        content_type: values.contentType,
        size: values.size,
        sha256: values.sha256,
        description: values.description,
        storage_key: values.storageKey,
        created_by: values.createdBy,
      },
      this.shape.columns,
      undefined,
      { prepared: true },
    );
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

  /** How many attachments the work order has (call with the work order locked to decide on the limit). */
  async countInWorkOrder(teamId: string, workOrderId: string): Promise<number> {
    const [row] = await this.select<{ count: number }>(
      teamId,
      { from: 'work_order_attachments a', columns: 'count(*)::int AS count', where: 'a.work_order_id = $2' },
      [workOrderId],
      undefined,
      { prepared: true },
    );
    return row.count;
  }

  /** True when `noteId` is a note of the work order. */
  async hasNote(teamId: string, workOrderId: string, noteId: string): Promise<boolean> {
    const rows = await this.select<{ id: string }>(
      teamId,
      { from: 'work_order_notes n', columns: 'n.id', where: 'n.work_order_id = $2 AND n.id = $3' },
      [workOrderId, noteId],
    );
    return rows.length > 0;
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
