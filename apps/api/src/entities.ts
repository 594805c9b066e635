import { ApiKey, Team } from '@app/common';
import { Contractor } from './contractors/contractor.entity.js';
import { Landlord } from './landlords/landlord.entity.js';
import { TenantUnit } from './tenants/tenant-unit.entity.js';
import { Tenant } from './tenants/tenant.entity.js';
import { Unit } from './units/unit.entity.js';
import { WorkOrder } from './work-orders/work-order.entity.js';

/** Every entity, for the migration tooling (`ormconfig.ts`); the app itself loads them per module. */
export const entities = [Team, ApiKey, Contractor, Unit, Tenant, TenantUnit, Landlord, WorkOrder];
