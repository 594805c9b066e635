import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorsWith, Public } from '@app/common';
import { AttachmentsService } from './attachments.service.js';
import { AttachmentResponse } from './dto/attachment.response.js';
import { DownloadQuery } from './dto/download.query.js';
import { sendObject } from './send-object.js';

/** The signed download URLs of attachments: no key, the signature is the permission. */
@ApiTags('Work orders')
@Public()
@Controller('attachment-downloads')
export class AttachmentDownloadsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @Get(':teamId/:attachmentId')
  @ApiOperation({
    summary: 'Download an attachment by its signed URL',
    description:
      'The `downloadUrl` of an attachment: needs no key and works for 15 minutes. A changed, expired or deleted ' +
      'attachment’s URL is 403.',
  })
  // No examples: only a URL the API signed is valid; its parts come from an attachment's `downloadUrl`.
  @ApiParam({ name: 'teamId', format: 'uuid' })
  @ApiParam({ name: 'attachmentId', format: 'uuid' })
  @ApiResponse({
    status: 200,
    description: 'The bytes, as uploaded',
    content: Object.fromEntries(
      AttachmentResponse.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  @ApiErrorsWith({ 403: 'This download URL is not valid: it was changed, has expired or was revoked' }, 400, 403)
  async download(
    @Param('teamId') teamId: string,
    @Param('attachmentId') id: string,
    @Query() query: DownloadQuery,
    @Res() response: Response,
  ): Promise<void> {
    const { row, object } = await this.attachments.download(
      teamId.toLowerCase(),
      id.toLowerCase(),
      query.expires,
      query.signature,
    );
    await sendObject(response, row, object);
  }
}
