import { resourceApi } from '../support/resource-api.js';
import type { Team, TestApp } from '../support/test-app.js';

/** A tenant as the API returns it. */
export interface TenantBody {
  id: string;
  teamId: string;
  externalRef: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phoneNumber: string | null;
  notes: string | null;
  tenantUnits: { id: string; unit: { id: string; fullAddress: string } }[];
  createdAt: string;
  updatedAt: string;
}

export const TENANT_KEYS = [
  'id',
  'teamId',
  'externalRef',
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'notes',
  'tenantUnits',
  'createdAt',
  'updatedAt',
];

let sequence = 0;

/** A minimal valid create body; each call gets a different last name so searches can tell tenants apart. */
export function tenantInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return { firstName: 'Alex', lastName: `Tenant${sequence}`, ...overrides };
}

const tenants = resourceApi<TenantBody>('/v1/tenants');
export const postTenant = tenants.post;
export const putTenant = tenants.put;
export const getTenant = tenants.get;
export const listTenants = tenants.list;

/** Creates a tenant through the API and returns it as the API answered. */
export const createTenant = (sut: TestApp, team: Team, overrides: Record<string, unknown> = {}): Promise<TenantBody> =>
  tenants.create(sut, team, tenantInput(overrides));

/** The linked unit ids of a tenant as returned, in order. */
export const linkedUnitIds = (tenant: TenantBody): string[] => tenant.tenantUnits.map((link) => link.unit.id);

/** The stored links of a tenant, oldest first, straight from the database. */
export function storedLinks(
  sut: TestApp,
  tenantId: string,
): Promise<{ id: string; team_id: string; unit_id: string; created_at: Date }[]> {
  return sut.sql(
    'SELECT id, team_id, unit_id, created_at FROM tenant_units WHERE tenant_id = $1 ORDER BY created_at, id',
    [tenantId],
  );
}
