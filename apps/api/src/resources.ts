import type { Type } from '@nestjs/common';
import { ApiKey, Team } from '@app/common';
import { Contractor, ContractorsModule } from './contractors/index.js';
import { Landlord, LandlordsModule } from './landlords/index.js';
import { TenanciesModule, Tenancy } from './tenancies/index.js';
import { Tenant, TenantsModule } from './tenants/index.js';
import { Unit, UnitsModule } from './units/index.js';
import { WorkOrder, WorkOrdersModule } from './work-orders/index.js';

/**
 * Every resource of the API, registered once: AppModule imports the modules (their routes appear in the API
 * and the OpenAPI document in this order) and the migration tooling (`ormconfig.ts`) takes the entities.
 * `npm run generate:resource` adds its line here.
 */
export interface Resource {
  module: Type;
  entities: Type[];
}

export const RESOURCES: Resource[] = [
  { module: ContractorsModule, entities: [Contractor] },
  { module: UnitsModule, entities: [Unit] },
  { module: TenanciesModule, entities: [Tenancy] },
  { module: TenantsModule, entities: [Tenant] },
  { module: WorkOrdersModule, entities: [WorkOrder] },
  { module: LandlordsModule, entities: [Landlord] },
];

/** Every entity, for the migration tooling; the app itself loads them per module. */
export const entities: Type[] = [Team, ApiKey, ...RESOURCES.flatMap((resource) => resource.entities)];
