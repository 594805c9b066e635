import { PartialType } from '@nestjs/swagger';
import { CreateNoteDto } from './create-note.dto.js';

/** Partial update: omitted fields keep their value; `null` clears `authorName` and is refused for `text`. */
export class UpdateNoteDto extends PartialType(CreateNoteDto, { skipNullProperties: false }) {}
