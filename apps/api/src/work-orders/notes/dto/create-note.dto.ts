import { OptionalText, RequiredText } from '@app/common';
import { WORK_ORDER_NOTE_EXAMPLE } from '../work-order-note.example.js';

const note = WORK_ORDER_NOTE_EXAMPLE;

/** The limits of a note's fields (characters, counted after trimming). */
export const NOTE_TEXT_MAX = 10_000;
export const NOTE_AUTHOR_NAME_MAX = 160;

export class CreateNoteDto {
  /** What was said or found, as plain text. */
  @RequiredText(NOTE_TEXT_MAX, { example: note.text })
  text!: string;

  /** Who said it, in your words (`Jane Doe (tenant)`); `null` when the key that writes the note says it all. */
  @OptionalText(NOTE_AUTHOR_NAME_MAX, { example: note.authorName })
  authorName?: string | null;
}
