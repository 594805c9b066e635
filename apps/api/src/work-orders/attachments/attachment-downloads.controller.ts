import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeylessErrors, Public } from '@app/common';
import { AttachmentsService, DOWNLOAD_REFUSED } from './attachments.service.js';
import { AttachmentResponse } from './dto/attachment.response.js';
import { SIGNED_DOWNLOAD_QUERY_DOCS, signedDownloadQueryOf } from './dto/download.query.js';
import { DOWNLOAD_HEADERS, sendObject } from './send-object.js';

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
      'attachment’s URL is 403, as is any URL not exactly as signed (a malformed or missing part, an extra parameter).',
  })
  // No examples: only a URL the API signed is valid; its parts come from an attachment's `downloadUrl`.
  @ApiParam({ name: 'teamId', format: 'uuid' })
  @ApiParam({ name: 'attachmentId', format: 'uuid' })
  // Listed in reverse: Nest applies decorators bottom-up, and the document shows `expires` first.
  @ApiQuery({ ...SIGNED_DOWNLOAD_QUERY_DOCS[1], required: true })
  @ApiQuery({ ...SIGNED_DOWNLOAD_QUERY_DOCS[0], required: true })
  @ApiResponse({
    status: 200,
    description: 'The bytes, as uploaded',
    headers: DOWNLOAD_HEADERS,
    content: Object.fromEntries(
      AttachmentResponse.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  // Never 400: whatever is wrong with the URL, it is not one the API signed (403). No key is read: never 401.
  @ApiKeylessErrors({
    403: {
      description:
        'Not a URL the API signed, or no longer valid: a part changed, missing or malformed, an extra parameter, ' +
        'past its expiry, or its attachment deleted',
      example: DOWNLOAD_REFUSED,
    },
  })
  async download(
    @Param('teamId') teamId: string,
    @Param('attachmentId') id: string,
    // The raw query, not a validated DTO: a malformed one is refused by the service as a changed URL.
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const signed = signedDownloadQueryOf(request.query);
    const { row, object } = await this.attachments.download(teamId.toLowerCase(), id.toLowerCase(), signed);
    await sendObject(response, row, object);
  }
}
