import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  Clock,
  InvalidReferenceError,
  pageOf,
  presentFields,
  RecordNotFoundError,
  type Page,
  type TeamScopedRepository,
  type TeamOwned,
} from '@app/common';
import { ContractorsRepository } from '../contractors/contractors.repository.js';
import { TenantsRepository } from '../tenants/tenants.repository.js';
import { UnitsRepository } from '../units/units.repository.js';
import type { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import type { UpdateWorkOrderDto } from './dto/update-work-order.dto.js';
import { WorkOrderResponse } from './dto/work-order.response.js';
import { statusChange } from './work-order-status.js';
import { API_INTAKE_CHANNEL } from './work-order.entity.js';
import { WorkOrdersRepository } from './work-orders.repository.js';

type LinkedRepository = Pick<TeamScopedRepository<TeamOwned>, 'existingIds'>;

/** What a body may write as given; `status` goes through the transition rules instead. */
const EDITABLE_FIELDS = [
  'title',
  'description',
  'unitId',
  'tenantId',
  'contractorId',
  'availability',
  'priority',
] as const;

@Injectable()
export class WorkOrdersService {
  constructor(
    private readonly workOrders: WorkOrdersRepository,
    private readonly units: UnitsRepository,
    private readonly tenants: TenantsRepository,
    private readonly contractors: ContractorsRepository,
    private readonly clock: Clock,
  ) {}

  async create(teamId: string, dto: CreateWorkOrderDto): Promise<WorkOrderResponse> {
    // Checked before a number is taken: a rejected create must not consume one.
    await this.assertLinksExist(teamId, dto);
    const id = randomUUID();
    await this.workOrders.insertNumbered(teamId, {
      id,
      title: dto.title,
      description: dto.description ?? null,
      status: 'reported',
      priority: dto.priority ?? '2',
      availability: dto.availability ?? null,
      selfResolved: false,
      resolvedAt: null,
      intakeChannel: API_INTAKE_CHANNEL,
      unitId: dto.unitId,
      tenantId: dto.tenantId ?? null,
      contractorId: dto.contractorId ?? null,
    });
    return this.get(teamId, id);
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
    const workOrder = await this.workOrders.findWithLinks(teamId, id);
    if (!workOrder) throw new RecordNotFoundError('Work order');
    return WorkOrderResponse.from(workOrder);
  }

  /** Reads, decides and writes under the row lock, so concurrent updates each see the previous one's result. */
  async update(teamId: string, id: string, dto: UpdateWorkOrderDto): Promise<WorkOrderResponse> {
    const updated = await this.workOrders.transaction(async (manager) => {
      const current = await this.workOrders.findForUpdate(teamId, id, manager);
      if (!current) throw new RecordNotFoundError('Work order');
      await this.assertLinksExist(teamId, dto, manager);
      const contractorIdAfter = dto.contractorId === undefined ? current.contractorId : dto.contractorId;
      const fields = {
        ...presentFields(dto, EDITABLE_FIELDS),
        ...statusChange(current.status, dto.status, contractorIdAfter, new Date(this.clock.now())),
      };
      await this.workOrders.update(teamId, id, fields, manager);
      return this.workOrders.findWithLinks(teamId, id, manager);
    });
    if (!updated) throw new RecordNotFoundError('Work order');
    return WorkOrderResponse.from(updated);
  }

  /** Each link present must name a record of the caller's team; another team's record counts as missing. */
  private async assertLinksExist(teamId: string, dto: UpdateWorkOrderDto, manager?: EntityManager): Promise<void> {
    const links: [field: string, id: string | null | undefined, resource: string, owner: LinkedRepository][] = [
      ['unitId', dto.unitId, 'Unit', this.units],
      ['tenantId', dto.tenantId, 'Tenant', this.tenants],
      ['contractorId', dto.contractorId, 'Contractor', this.contractors],
    ];
    for (const [field, id, resource, owner] of links) {
      if (id && (await owner.existingIds(teamId, [id], manager)).size === 0) {
        throw new InvalidReferenceError(field, resource);
      }
    }
  }
}
