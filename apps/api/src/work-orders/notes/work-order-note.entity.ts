import { Column, Entity } from 'typeorm';
import { TeamOwnedEntity } from '@app/common';
import type { NoteAuthor } from './work-order-note.row.js';

@Entity('work_order_notes')
export class WorkOrderNote extends TeamOwnedEntity {
  @Column({ name: 'work_order_id', type: 'uuid' })
  workOrderId!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'author_name', type: 'text', nullable: true })
  authorName!: string | null;

  /** The API key that wrote it, as it was named then (`{type, id, name}`); never a secret. */
  @Column({ name: 'created_by', type: 'jsonb', update: false })
  createdBy!: NoteAuthor;
}
