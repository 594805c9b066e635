import type { Actor } from '@app/common';

/** Who writes a note: always an API key (a note is written through the API only). */
export type NoteAuthor = Extract<Actor, { type: 'api_key' }>;

/** A work order's note as the repository reads it (timestamps already in the API's text form). */
export interface WorkOrderNoteRow {
  id: string;
  teamId: string;
  workOrderId: string;
  text: string;
  authorName: string | null;
  createdBy: NoteAuthor;
  /** The attachments posted with the note, oldest first (always empty until attachments exist). */
  attachmentIds: string[];
  createdAt: string;
  updatedAt: string;
}
