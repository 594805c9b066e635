import type { Type } from '@nestjs/common';
import type { ConditionalSource } from '@app/common';
import {
  ContractorResponse,
  ContractorsService,
  CreateContractorDto,
  UpdateContractorDto,
} from '../contractors/index.js';
import { CreateLandlordDto, LandlordResponse, LandlordsService, UpdateLandlordDto } from '../landlords/index.js';
import { CreateTenantDto, TenantResponse, TenantsService, UpdateTenantDto } from '../tenants/index.js';
import { CreateUnitDto, UnitResponse, UnitsService, UpdateUnitDto } from '../units/index.js';
import { CreateWorkOrderDto, UpdateWorkOrderDto, WorkOrderResponse, WorkOrdersService } from '../work-orders/index.js';

/** The resources an import writes, as `?resource=` names them. */
export const IMPORT_RESOURCES = ['units', 'tenants', 'landlords', 'contractors', 'work-orders'] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

/** A service that creates and updates a resource's records (the one its POST and PUT call). */
export interface WritesRecords extends ConditionalSource {
  create(teamId: string, dto: object): Promise<object>;
  update(teamId: string, id: string, dto: object): Promise<object>;
}

/** A reference by external id: the row's `from` field names records of `table` by their `externalRef`. */
export interface ExternalReference {
  from: string;
  to: string;
  table: string;
  list: boolean;
}

/** Everything an import needs of one resource. */
export interface ImportTarget {
  create: Type;
  update: Type;
  response: Type;
  service: Type<WritesRecords>;
  /** Its table, for external ids and the `ANALYZE` after a large import. */
  table: string;
  references: ExternalReference[];
}

const ref = (from: string, to: string, table: string, list = false): ExternalReference => ({ from, to, table, list });

export const IMPORT_TARGETS: Record<ImportResource, ImportTarget> = {
  units: {
    create: CreateUnitDto,
    update: UpdateUnitDto,
    response: UnitResponse,
    service: UnitsService,
    table: 'units',
    references: [],
  },
  tenants: {
    create: CreateTenantDto,
    update: UpdateTenantDto,
    response: TenantResponse,
    service: TenantsService,
    table: 'tenants',
    references: [ref('unitExternalRefs', 'unitIds', 'units', true)],
  },
  landlords: {
    create: CreateLandlordDto,
    update: UpdateLandlordDto,
    response: LandlordResponse,
    service: LandlordsService,
    table: 'landlords',
    references: [],
  },
  contractors: {
    create: CreateContractorDto,
    update: UpdateContractorDto,
    response: ContractorResponse,
    service: ContractorsService,
    table: 'contractors',
    references: [],
  },
  'work-orders': {
    create: CreateWorkOrderDto,
    update: UpdateWorkOrderDto,
    response: WorkOrderResponse,
    service: WorkOrdersService,
    table: 'work_orders',
    references: [
      ref('unitExternalRef', 'unitId', 'units'),
      ref('tenantExternalRef', 'tenantId', 'tenants'),
      ref('contractorExternalRef', 'contractorId', 'contractors'),
    ],
  },
};

export function isImportResource(value: unknown): value is ImportResource {
  return typeof value === 'string' && (IMPORT_RESOURCES as readonly string[]).includes(value);
}
