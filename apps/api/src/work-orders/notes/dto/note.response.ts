import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES } from '@app/common';
import type { WorkOrderNoteRow } from '../work-order-note.row.js';
import { WORK_ORDER_NOTE_EXAMPLE } from '../work-order-note.example.js';

const note = WORK_ORDER_NOTE_EXAMPLE;

/** Who wrote a note: the API key (its id and its name when it was written), never its secret. */
export class NoteAuthorResponse {
  @ApiProperty({ enum: ['api_key'], example: 'api_key' })
  type!: 'api_key';
  /** The API key's id (`npm run cli -- keys list` and the dashboard show it). */
  @ApiProperty({ format: 'uuid', example: note.createdBy.id })
  id!: string;
  /** The key's name when the note was written; `null` for an unnamed key. */
  @ApiProperty({ type: String, nullable: true, example: note.createdBy.name })
  name!: string | null;
}

export class NoteResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: note.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  /** The work order the note belongs to. */
  @ApiProperty({ format: 'uuid', readOnly: true, example: note.workOrderId })
  workOrderId!: string;
  @ApiProperty({ maxLength: 10_000, example: note.text })
  text!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 160, example: note.authorName })
  authorName!: string | null;
  /** The API key that wrote the note. */
  @ApiProperty({ type: NoteAuthorResponse, readOnly: true })
  createdBy!: NoteAuthorResponse;
  /** The ids of the attachments posted with this note, oldest first. */
  @ApiProperty({ type: [String], format: 'uuid', readOnly: true, example: [] })
  attachmentIds!: string[];
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a note row to the API's shape. */
  static from(this: void, row: WorkOrderNoteRow): NoteResponse {
    const { createdBy } = row;
    return {
      id: row.id,
      teamId: row.teamId,
      workOrderId: row.workOrderId,
      text: row.text,
      authorName: row.authorName,
      createdBy: { type: createdBy.type, id: createdBy.id, name: createdBy.name },
      attachmentIds: row.attachmentIds,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
