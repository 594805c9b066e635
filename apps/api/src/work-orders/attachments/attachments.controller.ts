import { Controller, Delete, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiCreate,
  ApiDelete,
  ApiErrorsWith,
  ApiGetOne,
  ApiPageResponse,
  Authenticated,
  ConditionalResource,
  IdParam,
  RATE_LIMIT_HEADERS,
  RequestActor,
  TeamId,
  type Actor,
  type Page,
} from '@app/common';
import { WorkOrdersService } from '../work-orders.service.js';
import type { NoteAuthor } from '../notes/work-order-note.row.js';
import { WORK_ORDER_NOTE_EXAMPLE } from '../notes/work-order-note.example.js';
import { ATTACHMENT_EXAMPLE } from './attachment.example.js';
import { DESCRIPTION_MAX, type StoredUpload } from './attachment-uploads.js';
import { ATTACHMENTS_PER_WORK_ORDER, AttachmentsService } from './attachments.service.js';
import { AttachmentResponse } from './dto/attachment.response.js';
import { ListAttachmentsQuery } from './dto/list-attachments.query.js';
import { NOT_ACCEPTED, TOO_LARGE } from './multipart-upload.js';
import { ReceivedUpload, ReceiveUploadGuard } from './receive-upload.guard.js';
import { DOWNLOAD_HEADERS, sendObject } from './send-object.js';

const WORK_ORDER_NOT_FOUND = { 404: 'Work order not found' };

const keyOf = (actor: Actor): NoteAuthor => {
  if (actor.type !== 'api_key') throw new Error(`an attachment uploaded by ${actor.type}`);
  return actor;
};

@ApiTags('Work orders')
@Authenticated()
@ConditionalResource({
  source: AttachmentsService,
  idParam: 'attachmentId',
  name: 'Attachment',
  event: 'attachment',
  // No route updates an attachment: the catalogue lists no attachment.updated.
  actions: ['created', 'deleted'],
  parent: { source: WorkOrdersService, idParam: 'workOrderId', name: 'Work order' },
  untaggedFields: AttachmentResponse.untaggedFields,
  eventObject: AttachmentResponse.eventObject,
})
@ApiParam({ name: 'workOrderId', format: 'uuid', example: ATTACHMENT_EXAMPLE.workOrderId })
@Controller('work-orders/:workOrderId/attachments')
export class AttachmentsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @Post()
  @HttpCode(201)
  // The file is stored before the write's transaction opens; the handler writes the row (receive-upload.guard.ts).
  @UseGuards(ReceiveUploadGuard)
  @ApiOperation({
    summary: 'Upload a photo or document to a work order',
    description:
      '`multipart/form-data` with one part `file` (JPEG, PNG, WebP, HEIC or PDF, decided from its bytes; at most ' +
      `10 MiB) and optional fields \`noteId\` (a note of this work order) and \`description\` (at most ${DESCRIPTION_MAX} ` +
      'characters). Another type, or a declared type naming a different accepted type than the bytes, is 415; a ' +
      `larger file 413; no \`file\` part 400. A work order holds at most ${ATTACHMENTS_PER_WORK_ORDER} attachments ` +
      '(409). Counted as one write. With `Idempotency-Key`, a repeat of the same path is answered as the first.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: {
          type: 'string',
          format: 'binary',
          description: 'The photo or document: JPEG, PNG, WebP, HEIC or PDF, at most 10 MiB',
        },
        noteId: {
          type: 'string',
          format: 'uuid',
          description: 'A note of this work order to attach it to',
          example: WORK_ORDER_NOTE_EXAMPLE.id,
        },
        description: {
          type: 'string',
          maxLength: DESCRIPTION_MAX,
          description: 'Shown beside the file',
          example: 'The cupboard floor under the kitchen sink, Monday morning',
        },
      },
    },
  })
  @ApiCreate(
    AttachmentResponse,
    {
      400: 'file is required: send the file in a part named file',
      409: `The work order already has ${ATTACHMENTS_PER_WORK_ORDER} attachments, the most it can hold; delete one first`,
      413: TOO_LARGE,
      415: NOT_ACCEPTED,
    },
    {
      400:
        'No `file` part (or one sent as a text field, without a file name), an unknown or repeated part or field, ' +
        `a \`noteId\` that is not a UUID or not a note of this work order, a \`description\` over ${DESCRIPTION_MAX} ` +
        'characters or holding a NUL character, a text field whose bytes are not UTF-8 (a part may name its charset ' +
        'instead: UTF-8, UTF-16LE, ISO-8859-1 or Windows-1252), or a work order id that is not a UUID; nothing was stored',
      413: 'The file is larger than 10 MiB (10,485,760 bytes); nothing was stored. (The 1 MiB limit of JSON bodies does not apply here.)',
      415:
        'The body is not `multipart/form-data` with a boundary, or the file is not JPEG, PNG, WebP, HEIC or PDF by ' +
        'its bytes, or its declared type names another accepted type than its bytes show; nothing was stored',
    },
  )
  @ApiErrorsWith(WORK_ORDER_NOT_FOUND, 404)
  async create(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @RequestActor() actor: Actor,
    @ReceivedUpload() upload: StoredUpload | undefined,
    @Req() request: Request,
  ): Promise<{ data: AttachmentResponse }> {
    // Unreachable: without a stored upload the id was malformed, and its validation refused the request.
    if (!upload) throw new Error('an attachment upload reached its handler without a stored file');
    return { data: await this.attachments.create(teamId, workOrderId, upload, keyOf(actor), request) };
  }

  @Get()
  @ApiOperation({
    summary: 'List a work order’s attachments',
    description: 'Oldest first. `page` ≥ 1 (default 1), `pageSize` 1–50 (default 20). Each has a fresh `downloadUrl`.',
  })
  @ApiPageResponse(AttachmentResponse, 'One page of the work order’s attachments, oldest first')
  @ApiErrorsWith(WORK_ORDER_NOT_FOUND, 400, 404)
  list(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @Query() query: ListAttachmentsQuery,
    @Req() request: Request,
  ): Promise<Page<AttachmentResponse>> {
    return this.attachments.list(teamId, workOrderId, query, request);
  }

  @Get(':attachmentId')
  @ApiOperation({ summary: 'Get an attachment', description: 'With a fresh `downloadUrl` (valid for 15 minutes).' })
  @ApiParam({ name: 'attachmentId', format: 'uuid', example: ATTACHMENT_EXAMPLE.id })
  @ApiGetOne(AttachmentResponse)
  async get(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('attachmentId') id: string,
    @Req() request: Request,
  ): Promise<{ data: AttachmentResponse }> {
    return { data: await this.attachments.get(teamId, id, workOrderId, request) };
  }

  @Get(':attachmentId/content')
  @ApiOperation({
    summary: 'Download an attachment’s bytes',
    description: 'The exact bytes, with the stored `Content-Type`, `Content-Disposition: attachment` and `nosniff`.',
  })
  @ApiParam({ name: 'attachmentId', format: 'uuid', example: ATTACHMENT_EXAMPLE.id })
  @ApiResponse({
    status: 200,
    description: 'The bytes',
    headers: { ...RATE_LIMIT_HEADERS, ...DOWNLOAD_HEADERS },
    content: Object.fromEntries(
      AttachmentResponse.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  @ApiErrorsWith({ 404: 'Attachment not found' }, 400, 404)
  async content(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('attachmentId') id: string,
    @Res() response: Response,
  ): Promise<void> {
    const { row, object } = await this.attachments.content(teamId, workOrderId, id);
    await sendObject(response, row, object);
  }

  @Delete(':attachmentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an attachment', description: '204; its download URLs stop working at once.' })
  @ApiParam({ name: 'attachmentId', format: 'uuid', example: ATTACHMENT_EXAMPLE.id })
  @ApiDelete(AttachmentResponse)
  async remove(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('attachmentId') id: string,
  ): Promise<void> {
    await this.attachments.remove(teamId, workOrderId, id);
  }
}
