import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, type TestApp } from '../support/test-app.js';
import type { Team } from './units.js';

/** A tenant as the API returns it. */
export interface TenantBody {
  id: string;
  teamId: string;
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

export function postTenant(sut: TestApp, team: Team, body: unknown): Promise<Response> {
  return sut
    .http()
    .post('/v1/tenants')
    .set(...bearer(team))
    .send(body as object);
}

export function putTenant(sut: TestApp, team: Team, id: string, body: unknown): Promise<Response> {
  return sut
    .http()
    .put(`/v1/tenants/${id}`)
    .set(...bearer(team))
    .send(body as object);
}

export function getTenant(sut: TestApp, team: Team, id: string): Promise<Response> {
  return sut
    .http()
    .get(`/v1/tenants/${id}`)
    .set(...bearer(team));
}

export function listTenants(sut: TestApp, team: Team, query: Record<string, string | number> = {}): Promise<Response> {
  return sut
    .http()
    .get('/v1/tenants')
    .query(query)
    .set(...bearer(team));
}

/** Creates a tenant through the API and returns it as the API answered. */
export async function createTenant(
  sut: TestApp,
  team: Team,
  overrides: Record<string, unknown> = {},
): Promise<TenantBody> {
  const response = await postTenant(sut, team, tenantInput(overrides));
  expect(response.status).toBe(201);
  return response.body.data as TenantBody;
}

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
