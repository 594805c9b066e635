import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { countTeamRows, resourceApi } from '../support/resource-api.js';
import type { Team, TestApp } from '../support/test-app.js';
import { createContractor } from './contractors.js';

export const STATUSES = ['reported', 'in_progress', 'completed', 'cancelled'] as const;
export type Status = (typeof STATUSES)[number];

/** A work order as the API returns it. */
export interface WorkOrderBody {
  id: string;
  teamId: string;
  externalRef: string | null;
  code: string;
  title: string;
  description: string | null;
  status: Status;
  priority: string;
  availability: string | null;
  selfResolved: boolean;
  resolvedAt: string | null;
  intakeChannel: string;
  tenant: { id: string; firstName: string; lastName: string; email: string | null } | null;
  unit: { id: string; fullAddress: string };
  contractor: { id: string; companyName: string } | null;
  createdAt: string;
  updatedAt: string;
}

export const WORK_ORDER_KEYS = [
  'id',
  'teamId',
  'externalRef',
  'code',
  'title',
  'description',
  'status',
  'priority',
  'availability',
  'selfResolved',
  'resolvedAt',
  'intakeChannel',
  'tenant',
  'unit',
  'contractor',
  'createdAt',
  'updatedAt',
];

export interface UnitRow {
  id: string;
  fullAddress: string;
}

export interface TenantRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

let sequence = 0;
const next = (): number => (sequence += 1);

/** A unit written straight to the database (independent of the units endpoints). */
export async function createUnit(sut: TestApp, team: Team): Promise<UnitRow> {
  const n = next();
  const unit = { id: randomUUID(), fullAddress: `${n} Mill Lane, Leeds, LS1 ${n}AB, United Kingdom` };
  await sut.sql(
    `INSERT INTO units (team_id, id, address_line1, city, country, postcode, full_address)
     VALUES ($1, $2, $3, 'Leeds', 'United Kingdom', $4, $5)`,
    [team.teamId, unit.id, `${n} Mill Lane`, `LS1 ${n}AB`, unit.fullAddress],
  );
  return unit;
}

/** A tenant written straight to the database (independent of the tenants endpoints). */
export async function createTenant(sut: TestApp, team: Team, email: string | null = null): Promise<TenantRow> {
  const n = next();
  const tenant = { id: randomUUID(), firstName: `Ada${n}`, lastName: `Lovelace${n}`, email };
  await sut.sql('INSERT INTO tenants (team_id, id, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5)', [
    team.teamId,
    tenant.id,
    tenant.firstName,
    tenant.lastName,
    tenant.email,
  ]);
  return tenant;
}

/** A contractor created through the API, reduced to what a work order shows of it. */
export async function createWorkOrderContractor(
  sut: TestApp,
  team: Team,
): Promise<{ id: string; companyName: string }> {
  const contractor = await createContractor(sut, team);
  return { id: contractor.id, companyName: contractor.companyName };
}

/** A minimal valid create body; each call has a different title so searches can tell them apart. */
export function workOrderInput(unitId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: `Leaking tap ${next()}`, unitId, ...overrides };
}

const workOrders = resourceApi<WorkOrderBody>('/v1/work-orders');
export const postWorkOrder = workOrders.post;
export const putWorkOrder = workOrders.put;
export const getWorkOrder = workOrders.get;
export const listWorkOrders = workOrders.list;

/** Creates a work order through the API and returns it as answered. */
export const createWorkOrder = (
  sut: TestApp,
  team: Team,
  unitId: string,
  overrides: Record<string, unknown> = {},
): Promise<WorkOrderBody> => workOrders.create(sut, team, workOrderInput(unitId, overrides));

/** Puts a work order into `status` by an allowed path from `reported`. */
export async function workOrderIn(
  sut: TestApp,
  team: Team,
  unitId: string,
  status: Status,
  overrides: Record<string, unknown> = {},
): Promise<WorkOrderBody> {
  const created = await createWorkOrder(sut, team, unitId, overrides);
  if (status === 'reported') return created;
  const moved = await putWorkOrder(sut, team, created.id, { status });
  expect(moved.status).toBe(200);
  return moved.body.data as WorkOrderBody;
}

/** The codes of a list answer, in order, after checking it succeeded. */
export function codesOf(response: Response): string[] {
  expect(response.status).toBe(200);
  return (response.body.data as WorkOrderBody[]).map((workOrder) => workOrder.code);
}

export const countWorkOrders = (sut: TestApp, teamId: string): Promise<number> =>
  countTeamRows(sut, 'work_orders', teamId);

export async function lastNumber(sut: TestApp, teamId: string): Promise<number> {
  const [row] = await sut.sql<{ n: number }>('SELECT last_work_order_number AS n FROM teams WHERE id = $1', [teamId]);
  return row.n;
}
