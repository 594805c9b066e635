import { Column, Entity } from 'typeorm';
import { TeamOwnedEntity } from '@app/common';
import type { NoteAuthor } from '../notes/work-order-note.row.js';

@Entity('work_order_attachments')
export class WorkOrderAttachment extends TeamOwnedEntity {
  @Column({ name: 'work_order_id', type: 'uuid' })
  workOrderId!: string;

  @Column({ name: 'note_id', type: 'uuid', nullable: true })
  noteId!: string | null;

  @Column({ name: 'file_name', type: 'text' })
  fileName!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @Column({ name: 'created_by', type: 'jsonb', update: false })
  createdBy!: NoteAuthor;
}
