import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ambientManager,
  Clock,
  ConflictError,
  pageOf,
  presentFields,
  RecordNotFoundError,
  type ConditionalSource,
  type Page,
} from '@app/common';
import type { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import type { UpdateWorkOrderDto } from './dto/update-work-order.dto.js';
import { WorkOrderResponse } from './dto/work-order.response.js';
import { statusChange } from './work-order-status.js';
import { API_INTAKE_CHANNEL } from './work-order.entity.js';
import type { WorkOrderState, WorkOrderWrite } from './work-order.row.js';
import { WorkOrdersRepository } from './work-orders.repository.js';

/** An update re-reads and re-decides when another one changed the row in between; this many tries at most. */
const UPDATE_ATTEMPTS = 10;

/** The fields a body writes as given; `status` goes through the transition rules instead. */
const PLAIN_FIELDS = [
  'externalRef',
  'title',
  'description',
  'priority',
  'availability',
  'unitId',
  'tenantId',
  'contractorId',
] as const;

/** A new work order's values from its POST body (its status fields are the caller's). */
function createdValuesOf(
  dto: CreateWorkOrderDto,
): Omit<Required<WorkOrderWrite>, 'status' | 'selfResolved' | 'resolvedAt'> {
  return {
    externalRef: dto.externalRef ?? null,
    title: dto.title,
    description: dto.description ?? null,
    priority: dto.priority ?? '2',
    availability: dto.availability ?? null,
    intakeChannel: API_INTAKE_CHANNEL,
    unitId: dto.unitId,
    tenantId: dto.tenantId ?? null,
    contractorId: dto.contractorId ?? null,
  };
}

@Injectable()
export class WorkOrdersService implements ConditionalSource {
  /**
   * The state of the work orders a transaction has locked and read (`getLocked`: a PUT's `previousAttributes`, an
   * `If-Match` check), by the transaction: its next update decides on that state instead of reading it again (one
   * round trip less per PUT). Safe even if the state no longer holds (the transaction's own write, a savepoint rolled
   * back with its lock): the update applies only while the row still has it (`updateIf`), else it reads again.
   */
  private readonly locked = new WeakMap<EntityManager, Map<string, WorkOrderState>>();

  constructor(
    private readonly workOrders: WorkOrdersRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Links are checked by the database's team-scoped foreign keys: a bad one rolls back the number too. `id` is
   * chosen only for the demo team's example record (apps/api/src/demo-records.ts).
   */
  async create(teamId: string, dto: CreateWorkOrderDto, id: string = randomUUID()): Promise<WorkOrderResponse> {
    const row = await this.workOrders.create(teamId, id, {
      ...createdValuesOf(dto),
      status: 'reported',
      selfResolved: false,
      resolvedAt: null,
    });
    return WorkOrderResponse.from(row);
  }

  /**
   * An import's create of a row that carries fields its POST does not take (`later`: a `status`): the record as the
   * POST makes it, with the status set as given (no transition rules; `completed` resolved at `importedAt`), in the
   * one statement of the create instead of a create and an update.
   */
  async createImported(
    teamId: string,
    dto: CreateWorkOrderDto,
    later: UpdateWorkOrderDto,
    importedAt: Date,
  ): Promise<WorkOrderResponse> {
    const move = statusChange('reported', later.status, dto.contractorId ?? null, importedAt, true);
    const row = await this.workOrders.create(teamId, randomUUID(), {
      ...createdValuesOf(dto),
      status: move.status ?? 'reported',
      selfResolved: move.selfResolved ?? false,
      resolvedAt: move.resolvedAt?.toISOString() ?? null,
    });
    return WorkOrderResponse.from(row);
  }

  async list(teamId: string, query: ListWorkOrdersQuery): Promise<Page<WorkOrderResponse>> {
    const [rows, total] = await this.workOrders.list(teamId, query);
    return pageOf(rows.map(WorkOrderResponse.from), total, query);
  }

  lock(teamId: string, id: string): Promise<boolean> {
    return this.workOrders.lock(teamId, id);
  }

  /** GET one's answer with the row locked (`FOR UPDATE OF w`), in one statement: a PUT's `previousAttributes`. */
  async getLocked(teamId: string, id: string): Promise<WorkOrderResponse | undefined> {
    const row = await this.workOrders.findOne(teamId, id, { lock: 'FOR UPDATE' });
    const manager = ambientManager();
    if (row && manager) {
      const states = this.locked.get(manager) ?? new Map<string, WorkOrderState>();
      states.set(row.id, { status: row.status, contractorId: row.contractorId });
      this.locked.set(manager, states);
    }
    return row && WorkOrderResponse.from(row);
  }

  /** A work order can always be deleted; its code is never reused (the team's counter only grows). */
  async remove(teamId: string, id: string): Promise<void> {
    if (!(await this.workOrders.delete(teamId, id))) throw new RecordNotFoundError('Work order');
  }

  /**
   * Refuses (409) to delete a unit, tenant or contractor that work orders still refer to, naming them. Call
   * with the record locked: a work order linking to it meanwhile waits, then fails its foreign key.
   */
  async refuseIfReferenced(
    teamId: string,
    field: 'unitId' | 'tenantId' | 'contractorId',
    id: string,
    resource: string,
  ): Promise<void> {
    const { total, codes } = await this.workOrders.referring(teamId, field, id, 5);
    if (total === 0) return;
    const listed = `${codes.join(', ')}${total > codes.length ? ', …' : ''}`;
    throw new ConflictError(
      `${resource} is referred to by ${total} work order${total === 1 ? '' : 's'} (${listed}); ` +
        `delete them or change their ${field} first`,
    );
  }

  async get(teamId: string, id: string): Promise<WorkOrderResponse> {
    const row = await this.workOrders.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Work order');
    return WorkOrderResponse.from(row);
  }

  /** The state `getLocked` read of this work order in the current transaction, if it did; used at most once. */
  private takeLockedState(id: string): WorkOrderState | undefined {
    const manager = ambientManager();
    const states = manager && this.locked.get(manager);
    const state = states?.get(id.toLowerCase());
    states?.delete(id.toLowerCase());
    return state;
  }

  /**
   * Decides on the current status and contractor, then writes only if the row still has them (optimistic):
   * two round trips, and concurrent updates each see the previous one's result, as under a row lock. One, when the
   * transaction has locked and read the row already (a PUT, for its `previousAttributes`): it decides on that.
   * `importedAt`: an import's row, whose `status` moves with no transition rules, `completed` resolved at that time.
   */
  async update(teamId: string, id: string, dto: UpdateWorkOrderDto, importedAt?: Date): Promise<WorkOrderResponse> {
    let lockedState = this.takeLockedState(id);
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      // Taken once: should the row not match it after all, the next attempt reads the row as it is.
      const current = lockedState ?? (await this.workOrders.findState(teamId, id));
      lockedState = undefined;
      if (!current) throw new RecordNotFoundError('Work order');
      const contractorIdAfter = dto.contractorId === undefined ? current.contractorId : dto.contractorId;
      const now = importedAt ?? new Date(this.clock.now());
      const move = statusChange(current.status, dto.status, contractorIdAfter, now, importedAt !== undefined);
      const fields: WorkOrderWrite = presentFields(dto, PLAIN_FIELDS);
      if (move.status !== undefined) fields.status = move.status;
      if (move.selfResolved !== undefined) fields.selfResolved = move.selfResolved;
      if (move.resolvedAt !== undefined) fields.resolvedAt = move.resolvedAt?.toISOString() ?? null;
      const row = await this.workOrders.updateIf(teamId, id, current, fields);
      if (row) return WorkOrderResponse.from(row);
    }
    throw new ConflictError('The work order is being changed by other requests; retry');
  }
}
