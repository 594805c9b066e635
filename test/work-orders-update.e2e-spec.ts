import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTenant,
  createUnit,
  createWorkOrder,
  createWorkOrderContractor,
  getWorkOrder,
  putWorkOrder,
  type UnitRow,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError, expectFieldError } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('PUT /v1/work-orders/{workOrderId}', () => {
  let sut: TestApp;
  let team: Team;
  let unit: UnitRow;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
    unit = await createUnit(sut, team);
  });
  afterAll(() => sut.close());

  /** A work order with every optional field set. */
  async function fullWorkOrder(): Promise<WorkOrderBody> {
    const tenant = await createTenant(sut, team, 'grace@example.com');
    const contractor = await createWorkOrderContractor(sut, team);
    return createWorkOrder(sut, team, unit.id, {
      description: 'Drips all night',
      tenantId: tenant.id,
      contractorId: contractor.id,
      availability: 'Mornings',
      priority: 1,
    });
  }

  async function put(id: string, body: Record<string, unknown>): Promise<WorkOrderBody> {
    const response = await putWorkOrder(sut, team, id, body);
    expect(response.status).toBe(200);
    return response.body.data as WorkOrderBody;
  }

  /** A refused PUT leaves the stored work order exactly as it was. */
  async function expectUnchanged(before: WorkOrderBody): Promise<void> {
    expect((await getWorkOrder(sut, team, before.id)).body.data).toEqual(before);
  }

  it('changes only the fields sent and moves updatedAt forward', async () => {
    const before = await fullWorkOrder();
    const after = await put(before.id, { title: '  Tap replaced  ' });
    expect(after).toEqual({ ...before, title: 'Tap replaced', updatedAt: after.updatedAt });
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect((await getWorkOrder(sut, team, before.id)).body.data).toEqual(after);
  });

  it('moves updatedAt forward even for an empty body', async () => {
    const before = await fullWorkOrder();
    const after = await put(before.id, {});
    expect(after).toEqual({ ...before, updatedAt: after.updatedAt });
    expect(after.updatedAt > before.updatedAt).toBe(true);
  });

  it('sets every editable field at once', async () => {
    const before = await createWorkOrder(sut, team, unit.id);
    const [otherUnit, tenant, contractor] = [
      await createUnit(sut, team),
      await createTenant(sut, team),
      await createWorkOrderContractor(sut, team),
    ];
    const after = await put(before.id, {
      title: 'Roof leak',
      description: 'Water in the loft',
      unitId: otherUnit.id,
      tenantId: tenant.id,
      contractorId: contractor.id,
      availability: 'Any weekday',
      priority: '0',
      status: 'in_progress',
    });
    expect(after).toMatchObject({
      id: before.id,
      code: before.code,
      createdAt: before.createdAt,
      title: 'Roof leak',
      description: 'Water in the loft',
      unit: otherUnit,
      tenant,
      contractor,
      availability: 'Any weekday',
      priority: '0',
      status: 'in_progress',
    });
  });

  it('clears the nullable fields with null, and with empty strings', async () => {
    const first = await fullWorkOrder();
    const cleared = { description: null, availability: null, tenant: null, contractor: null };
    expect(
      await put(first.id, { description: null, availability: null, tenantId: null, contractorId: null }),
    ).toMatchObject(cleared);
    const second = await fullWorkOrder();
    expect(await put(second.id, { description: ' ', availability: '', tenantId: '', contractorId: '' })).toMatchObject(
      cleared,
    );
  });

  it.each([
    [0, '0'],
    [3, '3'],
    ['1', '1'],
  ])('accepts priority %j and returns %j', async (priority, expected) => {
    const before = await createWorkOrder(sut, team, unit.id);
    expect((await put(before.id, { priority })).priority).toBe(expected);
  });

  it.each([
    ['title', { title: null }],
    ['title', { title: '' }],
    ['title', { title: text(261) }],
    ['unitId', { unitId: null }],
    ['unitId', { unitId: '' }],
    ['unitId', { unitId: 'unit-1' }],
    ['tenantId', { tenantId: 'nope' }],
    ['contractorId', { contractorId: 12 }],
    ['priority', { priority: null }],
    ['priority', { priority: '' }],
    ['priority', { priority: 4 }],
    ['status', { status: null }],
    ['status', { status: '' }],
    ['status', { status: 'done' }],
    ['description', { description: text(10_001) }],
    ['availability', { availability: text(261) }],
  ])('refuses a bad %s (%j) and changes nothing', async (field, body) => {
    const before = await fullWorkOrder();
    expectFieldError(await putWorkOrder(sut, team, before.id, { title: 'Changed', ...body }), field);
    await expectUnchanged(before);
  });

  it.each([
    'id',
    'teamId',
    'code',
    'selfResolved',
    'resolvedAt',
    'intakeChannel',
    'unit',
    'tenant',
    'contractor',
    'updatedAt',
    'colour',
  ])('refuses the unknown or output-only property %s', async (property) => {
    const before = await fullWorkOrder();
    const response = await putWorkOrder(sut, team, before.id, { title: 'Changed', [property]: 'x' });
    expect(expectError(response, 400)).toBe(`property ${property} should not exist`);
    await expectUnchanged(before);
  });

  it.each([
    ['unitId', 'unitId must reference an existing unit'],
    ['tenantId', 'tenantId must reference an existing tenant'],
    ['contractorId', 'contractorId must reference an existing contractor'],
  ])('refuses a %s of no record and changes nothing', async (field, message) => {
    const before = await fullWorkOrder();
    const response = await putWorkOrder(sut, team, before.id, {
      title: 'Changed',
      status: 'completed',
      [field]: randomUUID(),
    });
    expect(expectError(response, 400)).toBe(message);
    await expectUnchanged(before);
  });

  it('answers 404 for a UUID of no work order, even with a body linking to no record', async () => {
    const response = await putWorkOrder(sut, team, randomUUID(), { title: 'x', unitId: randomUUID() });
    expect(expectError(response, 404)).toBe('Work order not found');
  });
});
