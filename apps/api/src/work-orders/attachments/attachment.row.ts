import type { NoteAuthor } from '../notes/work-order-note.row.js';

/** A work order's attachment as the repository reads it (timestamps already in the API's text form). */
export interface AttachmentRow {
  id: string;
  teamId: string;
  workOrderId: string;
  noteId: string | null;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  description: string | null;
  storageKey: string;
  createdBy: NoteAuthor;
  createdAt: string;
  updatedAt: string;
}
