import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  InvalidReferenceError,
  pageOf,
  presentFields,
  RecordNotFoundError,
  Transactions,
  type ConditionalSource,
  type Page,
} from '@app/common';
import { TenanciesRepository } from '../tenancies/index.js';
import { UnitsRepository } from '../units/index.js';
import { WorkOrdersService } from '../work-orders/index.js';
import type { CreateTenantDto } from './dto/create-tenant.dto.js';
import type { ListTenantsQuery } from './dto/list-tenants.query.js';
import { TenantResponse } from './dto/tenant.response.js';
import type { UpdateTenantDto } from './dto/update-tenant.dto.js';
import type { Tenant } from './tenant.entity.js';
import { TenantsRepository } from './tenants.repository.js';

/** Everything a body may write to the tenant row; `unitIds` is handled as links. */
const WRITABLE_FIELDS = ['externalRef', 'firstName', 'lastName', 'email', 'phoneNumber', 'notes'] as const;

/** What a new tenant holds where the body is silent. */
const DEFAULTS = { externalRef: null, email: null, phoneNumber: null, notes: null } as const;

@Injectable()
export class TenantsService implements ConditionalSource {
  constructor(
    private readonly transactions: Transactions,
    private readonly tenants: TenantsRepository,
    private readonly units: UnitsRepository,
    private readonly tenancies: TenanciesRepository,
    private readonly workOrders: WorkOrdersService,
  ) {}

  /** `id` is chosen only for the demo team's example record (apps/api/src/demo-records.ts). */
  async create(teamId: string, dto: CreateTenantDto, id: string = randomUUID()): Promise<TenantResponse> {
    await this.transactions.run(async (manager) => {
      const unitIds = await this.checkUnitIds(teamId, dto.unitIds, manager);
      const tenant = { ...DEFAULTS, ...presentFields(dto, WRITABLE_FIELDS), id } as Omit<Tenant, 'teamId'>;
      await this.tenants.insert(teamId, tenant, manager);
      if (unitIds) await this.tenancies.replaceUnitsOfTenant(teamId, id, unitIds, manager);
    });
    return this.get(teamId, id);
  }

  async list(teamId: string, query: ListTenantsQuery): Promise<Page<TenantResponse>> {
    const [rows, total] = await this.tenants.list(teamId, query);
    return pageOf(rows.map(TenantResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<TenantResponse> {
    const row = await this.tenants.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Tenant');
    return TenantResponse.from(row);
  }

  lock(teamId: string, id: string): Promise<boolean> {
    return this.tenants.lock(teamId, id);
  }

  /** GET one's answer with the row locked (`FOR UPDATE`), in one statement: a PUT's `previousAttributes`. */
  async getLocked(teamId: string, id: string): Promise<TenantResponse | undefined> {
    const row = await this.tenants.findOne(teamId, id, { lock: 'FOR UPDATE' });
    return row && TenantResponse.from(row);
  }

  /** Refused while work orders refer to the tenant; its unit links go with it (the foreign key cascades). */
  async remove(teamId: string, id: string): Promise<void> {
    const check = (): Promise<void> => this.workOrders.refuseIfReferenced(teamId, 'tenantId', id, 'Tenant');
    if (!(await this.tenants.deleteChecked(teamId, id, check))) throw new RecordNotFoundError('Tenant');
  }

  async update(teamId: string, id: string, dto: UpdateTenantDto): Promise<TenantResponse> {
    await this.transactions.run(async (manager) => {
      // Updating first takes the tenant's row lock (concurrent link replacements queue up) and answers a
      // missing tenant with 404 before any unit id is judged.
      const updated = await this.tenants.update(teamId, id, presentFields(dto, WRITABLE_FIELDS), manager);
      if (!updated) throw new RecordNotFoundError('Tenant');
      const unitIds = await this.checkUnitIds(teamId, dto.unitIds, manager);
      if (unitIds) await this.tenancies.replaceUnitsOfTenant(teamId, id, unitIds, manager);
    });
    return this.get(teamId, id);
  }

  /** The distinct ids (first occurrence kept) when every one is a unit of the team; a 400 naming the first that is not. */
  private async checkUnitIds(
    teamId: string,
    unitIds: string[] | undefined,
    manager: EntityManager,
  ): Promise<string[] | undefined> {
    if (unitIds === undefined) return undefined;
    // PostgreSQL returns uuids in lower case; compare in that form so `ABC…` and `abc…` are one unit.
    const normalized = unitIds.map((unitId) => unitId.toLowerCase());
    const distinct = [...new Set(normalized)];
    const existing = await this.units.existingIds(teamId, distinct, manager);
    const missing = normalized.findIndex((unitId) => !existing.has(unitId));
    if (missing >= 0) throw new InvalidReferenceError(`unitIds.${missing}`, 'Unit');
    return distinct;
  }
}
