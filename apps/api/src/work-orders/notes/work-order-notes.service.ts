import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ConflictError,
  pageOf,
  presentFields,
  RecordNotFoundError,
  Transactions,
  type ConditionalSource,
  type Page,
} from '@app/common';
import { WorkOrdersRepository } from '../work-orders.repository.js';
import type { CreateNoteDto } from './dto/create-note.dto.js';
import type { ListNotesQuery } from './dto/list-notes.query.js';
import { NoteResponse } from './dto/note.response.js';
import type { UpdateNoteDto } from './dto/update-note.dto.js';
import type { NoteAuthor } from './work-order-note.row.js';
import { WorkOrderNotesRepository } from './work-order-notes.repository.js';

/** How many notes one work order may hold (CONTRACT "Notes on work orders"). */
export const NOTES_PER_WORK_ORDER = 1_000;

/** The 409 when a work order holds as many notes as it may (the OpenAPI example says the same). */
export const NOTES_LIMIT_REACHED = `The work order already has ${NOTES_PER_WORK_ORDER.toLocaleString('en')} notes, the most it can hold; delete one first`;

/** Everything a body may write; the rest of the note belongs to the server. */
const WRITABLE_FIELDS = ['text', 'authorName'] as const;

/**
 * A work order's notes: the conversation of a repair. Every method takes the work order from the path; a note of
 * another work order is not found, and a missing work order is named as such.
 */
@Injectable()
export class WorkOrderNotesService implements ConditionalSource {
  constructor(
    private readonly notes: WorkOrderNotesRepository,
    private readonly workOrders: WorkOrdersRepository,
    private readonly transactions: Transactions,
  ) {}

  /**
   * With the work order locked, so two notes written at once cannot both be the 1,000th. `id` is chosen only for
   * the demo team's example note (apps/api/src/demo-records.ts).
   */
  create(
    teamId: string,
    workOrderId: string,
    dto: CreateNoteDto,
    createdBy: NoteAuthor,
    id: string = randomUUID(),
  ): Promise<NoteResponse> {
    return this.transactions.run(async () => {
      if (!(await this.workOrders.lock(teamId, workOrderId))) throw new RecordNotFoundError('Work order');
      if ((await this.notes.countInWorkOrder(teamId, workOrderId)) >= NOTES_PER_WORK_ORDER) {
        throw new ConflictError(NOTES_LIMIT_REACHED);
      }
      const authorName = dto.authorName ?? null;
      await this.notes.insertNote(teamId, { id, workOrderId, text: dto.text, authorName, createdBy });
      return this.get(teamId, id, workOrderId);
    });
  }

  async list(teamId: string, workOrderId: string, query: ListNotesQuery): Promise<Page<NoteResponse>> {
    const [rows, total] = await this.notes.list(teamId, workOrderId, query);
    if (total === 0) await this.requireWorkOrder(teamId, workOrderId);
    return pageOf(rows.map(NoteResponse.from), total, query);
  }

  async get(teamId: string, id: string, workOrderId?: string): Promise<NoteResponse> {
    const row = workOrderId && (await this.notes.findInWorkOrder(teamId, workOrderId, id));
    if (!row) throw await this.notFound(teamId, workOrderId);
    return NoteResponse.from(row);
  }

  async lock(teamId: string, id: string, workOrderId?: string): Promise<boolean> {
    return (await this.getLocked(teamId, id, workOrderId)) !== undefined;
  }

  /** GET one's answer with the row locked, in one statement: a PUT's `previousAttributes`, If-Match's ETag. */
  async getLocked(teamId: string, id: string, workOrderId?: string): Promise<NoteResponse | undefined> {
    const row = workOrderId && (await this.notes.findInWorkOrder(teamId, workOrderId, id, 'FOR UPDATE'));
    return row ? NoteResponse.from(row) : undefined;
  }

  update(teamId: string, workOrderId: string, id: string, dto: UpdateNoteDto): Promise<NoteResponse> {
    return this.transactions.run(async () => {
      if (!(await this.notes.findInWorkOrder(teamId, workOrderId, id, 'FOR UPDATE'))) {
        throw await this.notFound(teamId, workOrderId);
      }
      await this.notes.update(teamId, id, presentFields(dto, WRITABLE_FIELDS));
      return this.get(teamId, id, workOrderId);
    });
  }

  async remove(teamId: string, workOrderId: string, id: string): Promise<void> {
    if (!(await this.notes.deleteInWorkOrder(teamId, workOrderId, id))) throw await this.notFound(teamId, workOrderId);
  }

  /** The 404 for a note that is not there: the work order's when it is missing too, else the note's. */
  private async notFound(teamId: string, workOrderId: string | undefined): Promise<RecordNotFoundError> {
    if (workOrderId) await this.requireWorkOrder(teamId, workOrderId);
    return new RecordNotFoundError('Note');
  }

  private async requireWorkOrder(teamId: string, workOrderId: string): Promise<void> {
    const found = await this.workOrders.existingIds(teamId, [workOrderId]);
    if (!found.has(workOrderId)) throw new RecordNotFoundError('Work order');
  }
}
