import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, ConflictError, pageOf, RecordNotFoundError, type Page } from '@app/common';
import type { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import type { UpdateWorkOrderDto } from './dto/update-work-order.dto.js';
import { WorkOrderResponse } from './dto/work-order.response.js';
import { statusChange } from './work-order-status.js';
import { API_INTAKE_CHANNEL } from './work-order.entity.js';
import { WorkOrdersRepository, type WorkOrderWrite } from './work-orders.repository.js';

/** An update re-reads and re-decides when another one changed the row in between; this many tries at most. */
const UPDATE_ATTEMPTS = 10;

/** The plain columns a body writes as given; `status` goes through the transition rules instead. */
function columnsOf(dto: UpdateWorkOrderDto): WorkOrderWrite {
  const columns: WorkOrderWrite = {};
  if (dto.title !== undefined) columns.title = dto.title;
  if (dto.description !== undefined) columns.description = dto.description;
  if (dto.priority !== undefined) columns.priority = dto.priority;
  if (dto.availability !== undefined) columns.availability = dto.availability;
  if (dto.unitId !== undefined) columns.unit_id = dto.unitId;
  if (dto.tenantId !== undefined) columns.tenant_id = dto.tenantId;
  if (dto.contractorId !== undefined) columns.contractor_id = dto.contractorId;
  return columns;
}

@Injectable()
export class WorkOrdersService {
  constructor(
    private readonly workOrders: WorkOrdersRepository,
    private readonly clock: Clock,
  ) {}

  /** Links are checked by the database's team-scoped foreign keys: a bad one rolls back the number too. */
  async create(teamId: string, dto: CreateWorkOrderDto): Promise<WorkOrderResponse> {
    const row = await this.workOrders.create(teamId, randomUUID(), {
      title: dto.title,
      description: dto.description ?? null,
      status: 'reported',
      priority: dto.priority ?? '2',
      availability: dto.availability ?? null,
      intake_channel: API_INTAKE_CHANNEL,
      self_resolved: false,
      resolved_at: null,
      unit_id: dto.unitId,
      tenant_id: dto.tenantId ?? null,
      contractor_id: dto.contractorId ?? null,
    });
    return WorkOrderResponse.from(row);
  }

  async list(teamId: string, query: ListWorkOrdersQuery): Promise<Page<WorkOrderResponse>> {
    const [rows, total] = await this.workOrders.list(teamId, query);
    return pageOf(
      rows.map((row) => WorkOrderResponse.from(row)),
      total,
      query,
    );
  }

  async get(teamId: string, id: string): Promise<WorkOrderResponse> {
    const row = await this.workOrders.findWithLinks(teamId, id);
    if (!row) throw new RecordNotFoundError('Work order');
    return WorkOrderResponse.from(row);
  }

  /**
   * Decides on the current status and contractor, then writes only if the row still has them (optimistic):
   * two round trips, and concurrent updates each see the previous one's result, as under a row lock.
   */
  async update(teamId: string, id: string, dto: UpdateWorkOrderDto): Promise<WorkOrderResponse> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const current = await this.workOrders.findState(teamId, id);
      if (!current) throw new RecordNotFoundError('Work order');
      const contractorIdAfter = dto.contractorId === undefined ? current.contractor_id : dto.contractorId;
      const move = statusChange(current.status, dto.status, contractorIdAfter, new Date(this.clock.now()));
      const columns: WorkOrderWrite = { ...columnsOf(dto) };
      if (move.status !== undefined) columns.status = move.status;
      if (move.selfResolved !== undefined) columns.self_resolved = move.selfResolved;
      if (move.resolvedAt !== undefined) columns.resolved_at = move.resolvedAt?.toISOString() ?? null;
      const row = await this.workOrders.updateIf(teamId, id, current, columns);
      if (row) return WorkOrderResponse.from(row);
    }
    throw new ConflictError('The work order is being changed by other requests; retry');
  }
}
