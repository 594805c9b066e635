import { Injectable } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import type { NoteAuthor } from '../notes/work-order-note.row.js';
import { AttachmentUploads, DESCRIPTION_MAX } from './attachment-uploads.js';
import { AttachmentsService } from './attachments.service.js';
import type { AttachmentResponse } from './dto/attachment.response.js';
import { EXAMPLE_QUOTE_PDF } from './example-quote.js';

/** The demo example's fields (its bytes are the service's own: EXAMPLE_QUOTE_PDF). */
export class ExampleAttachmentBody {
  @IsString()
  @MaxLength(255)
  fileName!: string;

  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description!: string;
}

/**
 * Creates the demo team's example attachment (resources.ts `nestedExamples`): the example PDF stored and its row
 * written as an upload would be, so Swagger UI's pre-filled reads of `attachmentId` find a real file.
 */
@Injectable()
export class AttachmentExamples {
  constructor(
    private readonly uploads: AttachmentUploads,
    private readonly attachments: AttachmentsService,
  ) {}

  async create(
    teamId: string,
    workOrderId: string,
    body: ExampleAttachmentBody,
    author: NoteAuthor,
    id: string,
  ): Promise<AttachmentResponse> {
    const upload = await this.uploads.storeBytes(teamId, id, EXAMPLE_QUOTE_PDF, body.fileName);
    return this.attachments.create(teamId, workOrderId, { ...upload, description: body.description }, author);
  }
}
