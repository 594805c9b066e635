import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES } from '@app/common';
import { NoteAuthorResponse } from '../../notes/dto/note.response.js';
import type { AttachmentRow } from '../attachment.row.js';
import { ATTACHMENT_EXAMPLE } from '../attachment.example.js';

const example = ATTACHMENT_EXAMPLE;

export class AttachmentResponse {
  /** Every `contentType` an attachment may have. */
  static readonly contentTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'];
  /**
   * The signed URL and its expiry: made anew for every answer, not the attachment's state. They stay out of its
   * ETag (so `If-Match` and `If-None-Match` hold while the attachment is unchanged) and out of its events.
   */
  static readonly untaggedFields: readonly string[] = ['downloadUrl', 'downloadUrlExpiresAt'];

  @ApiProperty({ format: 'uuid', readOnly: true, example: example.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: example.workOrderId })
  workOrderId!: string;
  /** The note the file was posted with; `null` for none (or once that note is deleted). */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  noteId!: string | null;
  /** The uploaded file's name, for display only (path parts stripped, at most 255 characters). */
  @ApiProperty({ maxLength: 255, example: example.fileName })
  fileName!: string;
  /** What the bytes are, decided from the bytes. */
  @ApiProperty({
    enum: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'],
    example: example.contentType,
  })
  contentType!: string;
  /** Bytes. */
  @ApiProperty({ minimum: 1, maximum: 10_485_760, example: example.size })
  size!: number;
  /** SHA-256 of the bytes, lowercase hex. */
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', example: example.sha256 })
  sha256!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 500, example: example.description })
  description!: string | null;
  /** The API key that uploaded it. */
  @ApiProperty({ type: NoteAuthorResponse, readOnly: true })
  createdBy!: NoteAuthorResponse;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  /** Downloads the bytes without a key until `downloadUrlExpiresAt` (15 minutes); GET the attachment for a fresh one. */
  @ApiProperty({ format: 'uri', readOnly: true, example: example.downloadUrl })
  downloadUrl!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  downloadUrlExpiresAt!: string;

  /** The one mapping from a row (and its signed URL) to the API's shape. */
  static from(this: void, row: AttachmentRow, url: { downloadUrl: string; expiresAt: string }): AttachmentResponse {
    const { createdBy } = row;
    return {
      id: row.id,
      teamId: row.teamId,
      workOrderId: row.workOrderId,
      noteId: row.noteId,
      fileName: row.fileName,
      contentType: row.contentType,
      size: row.size,
      sha256: row.sha256,
      description: row.description,
      createdBy: { type: createdBy.type, id: createdBy.id, name: createdBy.name },
      createdAt: row.createdAt,
      downloadUrl: url.downloadUrl,
      downloadUrlExpiresAt: url.expiresAt,
    };
  }

  /** The attachment as its events carry it: without the signed URL. */
  static eventObject(this: void, data: object): object {
    return Object.fromEntries(
      Object.entries(data).filter(([field]) => !AttachmentResponse.untaggedFields.includes(field)),
    );
  }
}
