import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiCreate,
  ApiDelete,
  ApiErrorsWith,
  ApiGetOne,
  ApiPageResponse,
  ApiUpdate,
  Authenticated,
  ConditionalResource,
  IdParam,
  RequestActor,
  TeamId,
  updateDescription,
  type Actor,
  type Page,
} from '@app/common';
import { WorkOrdersService } from '../work-orders.service.js';
import { CreateNoteDto } from './dto/create-note.dto.js';
import { ListNotesQuery } from './dto/list-notes.query.js';
import { NoteResponse } from './dto/note.response.js';
import { UpdateNoteDto } from './dto/update-note.dto.js';
import { WORK_ORDER_NOTE_EXAMPLE } from './work-order-note.example.js';
import type { NoteAuthor } from './work-order-note.row.js';
import { NOTES_LIMIT_REACHED, NOTES_PER_WORK_ORDER, WorkOrderNotesService } from './work-order-notes.service.js';

const WORK_ORDER_NOT_FOUND = { 404: 'Work order not found' };

/** Only API keys call these routes (`@Authenticated()`), so the actor is always a key. */
const keyOf = (actor: Actor): NoteAuthor => {
  if (actor.type !== 'api_key') throw new Error(`a note written by ${actor.type}`);
  return actor;
};

@ApiTags('Work orders')
@Authenticated()
@ConditionalResource({
  source: WorkOrderNotesService,
  idParam: 'noteId',
  name: 'Note',
  event: 'work_order_note',
  parent: { source: WorkOrdersService, idParam: 'workOrderId', name: 'Work order' },
})
@ApiParam({
  name: 'workOrderId',
  format: 'uuid',
  description: 'The work order’s id (`POST /v1/work-orders` or `GET /v1/work-orders`)',
  example: WORK_ORDER_NOTE_EXAMPLE.workOrderId,
})
@Controller('work-orders/:workOrderId/notes')
export class WorkOrderNotesController {
  constructor(private readonly notes: WorkOrderNotesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a note to a work order',
    description:
      '`text` (1–10,000 characters) is required; `authorName` (at most 160, `null`: none) says who said it in your ' +
      'words, e.g. `Jane Doe (tenant)`. Lengths count the trimmed text. `createdBy` names the API key that wrote the ' +
      `note (never its secret). A work order holds at most ${NOTES_PER_WORK_ORDER.toLocaleString('en')} notes: ` +
      'the next is 409. The example path names the demo team’s work order.',
  })
  @ApiCreate(NoteResponse, { 409: NOTES_LIMIT_REACHED })
  @ApiErrorsWith(WORK_ORDER_NOT_FOUND, 404)
  async create(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @RequestActor() actor: Actor,
    @Body() body: CreateNoteDto,
  ): Promise<{ data: NoteResponse }> {
    return { data: await this.notes.create(teamId, workOrderId, body, keyOf(actor)) };
  }

  @Get()
  @ApiOperation({
    summary: 'List a work order’s notes',
    description: [
      '- `sort`: `createdAt` (default, oldest first: the conversation as it happened) or `-createdAt`; ties by ' +
        '`id` in the same direction, so pages are stable.',
      '- `page` ≥ 1 (default 1), `pageSize` 1–50 (default 20); out of range or not an integer: 400. ' +
        '`pagination.pageCount` = ceil(total / pageSize); a page past the end is `data: []` with the true totals.',
      '- An unknown parameter is 400; a work order of another team, or none, is 404.',
    ].join('\n'),
  })
  @ApiPageResponse(NoteResponse, 'One page of the work order’s notes, oldest first unless `sort` says otherwise')
  @ApiErrorsWith(WORK_ORDER_NOT_FOUND, 400, 404)
  list(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @Query() query: ListNotesQuery,
  ): Promise<Page<NoteResponse>> {
    return this.notes.list(teamId, workOrderId, query);
  }

  @Get(':noteId')
  @ApiOperation({
    summary: 'Get a note of a work order',
    description:
      'A note of another work order is 404 `Note not found`; a missing work order is `Work order not found`.',
  })
  @ApiParam({ name: 'noteId', format: 'uuid', example: WORK_ORDER_NOTE_EXAMPLE.id })
  @ApiGetOne(NoteResponse)
  async get(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('noteId') id: string,
  ): Promise<{ data: NoteResponse }> {
    return { data: await this.notes.get(teamId, id, workOrderId) };
  }

  @Put(':noteId')
  @ApiOperation({
    summary: 'Edit a note',
    description: updateDescription(
      '`text` (1–10,000 characters; not `null`) and `authorName` (at most 160; `null` clears it) may change; ' +
        '`createdBy` stays the key that wrote the note.',
    ),
  })
  @ApiParam({ name: 'noteId', format: 'uuid', example: WORK_ORDER_NOTE_EXAMPLE.id })
  @ApiUpdate(NoteResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('noteId') id: string,
    @Body() body: UpdateNoteDto,
  ): Promise<{ data: NoteResponse }> {
    return { data: await this.notes.update(teamId, workOrderId, id, body) };
  }

  @Delete(':noteId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a note',
    description: '204. Always possible. Deleting the work order deletes its notes too.',
  })
  @ApiParam({ name: 'noteId', format: 'uuid', example: WORK_ORDER_NOTE_EXAMPLE.id })
  @ApiDelete(NoteResponse)
  async remove(
    @TeamId() teamId: string,
    @IdParam('workOrderId') workOrderId: string,
    @IdParam('noteId') id: string,
  ): Promise<void> {
    await this.notes.remove(teamId, workOrderId, id);
  }
}
