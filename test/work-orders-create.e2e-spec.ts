import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  countWorkOrders,
  createTenant,
  createUnit,
  createWorkOrder,
  createWorkOrderContractor,
  getWorkOrder,
  lastNumber,
  postWorkOrder,
  WORK_ORDER_KEYS,
  workOrderInput,
  type UnitRow,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError, expectFieldError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('POST /v1/work-orders', () => {
  let sut: TestApp;
  let team: Team;
  let unit: UnitRow;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
    unit = await createUnit(sut, team);
  });
  afterAll(() => sut.close());

  it('creates a work order with every input field and answers it in full, as GET does', async () => {
    const tenant = await createTenant(sut, team, 'ada@example.com');
    const contractor = await createWorkOrderContractor(sut, team);
    const before = Date.now();
    const response = await postWorkOrder(sut, team, {
      title: '  Boiler not firing  ',
      description: 'No hot water since Monday',
      unitId: unit.id,
      tenantId: tenant.id,
      contractorId: contractor.id,
      availability: 'Weekdays after 5pm',
      priority: '0',
      externalRef: ' HD-5512 ',
    });
    expect(response.status).toBe(201);
    const body = response.body.data as WorkOrderBody;
    expect(Object.keys(body)).toEqual(WORK_ORDER_KEYS);
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      teamId: team.teamId,
      externalRef: 'HD-5512',
      code: expect.stringMatching(/^WO-\d+$/),
      title: 'Boiler not firing',
      description: 'No hot water since Monday',
      status: 'reported',
      priority: '0',
      availability: 'Weekdays after 5pm',
      selfResolved: false,
      resolvedAt: null,
      intakeChannel: 'api',
      tenant: { id: tenant.id, firstName: tenant.firstName, lastName: tenant.lastName, email: 'ada@example.com' },
      unit: { id: unit.id, fullAddress: unit.fullAddress },
      contractor,
      createdAt: expect.stringMatching(ISO_WITH_MS),
      updatedAt: expect.stringMatching(ISO_WITH_MS),
    });
    expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.updatedAt).toBe(body.createdAt);

    const read = await getWorkOrder(sut, team, body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: body });
  });

  it('defaults priority to "2" and the optional fields to null', async () => {
    const body = await createWorkOrder(sut, team, unit.id);
    expect(body).toMatchObject({
      status: 'reported',
      priority: '2',
      description: null,
      availability: null,
      tenant: null,
      contractor: null,
      selfResolved: false,
      resolvedAt: null,
      intakeChannel: 'api',
    });
  });

  it('stores optional strings that are empty after trimming as null', async () => {
    const body = await createWorkOrder(sut, team, unit.id, {
      description: '   ',
      availability: '',
      tenantId: '',
      contractorId: ' ',
    });
    expect(body).toMatchObject({ description: null, availability: null, tenant: null, contractor: null });
  });

  it('numbers the codes of a team WO-1, WO-2, … in creation order', async () => {
    const fresh = await sut.createTeam();
    const freshUnit = await createUnit(sut, fresh);
    const codes: string[] = [];
    for (let i = 0; i < 3; i += 1) codes.push((await createWorkOrder(sut, fresh, freshUnit.id)).code);
    expect(codes).toEqual(['WO-1', 'WO-2', 'WO-3']);
  });

  describe('priority', () => {
    it.each([
      ['0', '0'],
      ['1', '1'],
      ['2', '2'],
      ['3', '3'],
      [0, '0'],
      [1, '1'],
      [2, '2'],
      [3, '3'],
      [' 3 ', '3'],
    ])('accepts %j and returns it as %j', async (priority, expected) => {
      const body = await createWorkOrder(sut, team, unit.id, { priority });
      expect(body.priority).toBe(expected);
      expect((await getWorkOrder(sut, team, body.id)).body.data.priority).toBe(expected);
    });

    it.each([[''], [null], ['4'], [4], [-1], [1.5], ['1.5'], [true], ['high'], [['1']], [{}]])(
      'refuses %j',
      async (priority) => {
        const count = await countWorkOrders(sut, team.teamId);
        expectFieldError(await postWorkOrder(sut, team, workOrderInput(unit.id, { priority })), 'priority');
        expect(await countWorkOrders(sut, team.teamId)).toBe(count);
      },
    );
  });

  describe('limits and formats', () => {
    it('accepts a title of 260 characters, a description of 10,000 and availability of 260', async () => {
      const body = await createWorkOrder(sut, team, unit.id, {
        title: text(260),
        description: text(10_000),
        availability: text(260),
      });
      expect([body.title.length, body.description?.length, body.availability?.length]).toEqual([260, 10_000, 260]);
    });

    it.each([
      ['title', { title: text(261) }, 'title must be shorter than or equal to 260 characters'],
      ['description', { description: text(10_001) }, 'description must be shorter than or equal to 10000 characters'],
      ['availability', { availability: text(261) }, 'availability must be shorter than or equal to 260 characters'],
    ])('refuses %s over its limit', async (_field, overrides, message) => {
      expect(expectError(await postWorkOrder(sut, team, workOrderInput(unit.id, overrides)), 400)).toBe(message);
    });

    it.each([
      ['title', { title: undefined }],
      ['title', { title: '' }],
      ['title', { title: '   ' }],
      ['title', { title: null }],
      ['title', { title: 42 }],
      ['unitId', { unitId: undefined }],
      ['unitId', { unitId: '' }],
      ['unitId', { unitId: null }],
      ['unitId', { unitId: 'not-a-uuid' }],
      ['tenantId', { tenantId: 'abc' }],
      ['tenantId', { tenantId: 7 }],
      ['contractorId', { contractorId: `${randomUUID()}x` }],
      ['description', { description: 5 }],
      ['availability', { availability: false }],
    ])('refuses a bad %s (%j)', async (field, overrides) => {
      expectFieldError(await postWorkOrder(sut, team, workOrderInput(unit.id, overrides)), field);
    });

    it.each([
      [{ title: undefined }, 'title is required'],
      [{ title: '  ' }, 'title should not be empty'],
      [{ unitId: undefined }, 'unitId is required'],
      [{ description: 5 }, 'description must be a string'],
    ])('explains the rule a field breaks (%j)', async (overrides, message) => {
      expect(expectError(await postWorkOrder(sut, team, workOrderInput(unit.id, overrides)), 400)).toBe(message);
    });

    it('names every faulty field, joined with "; "', async () => {
      const error = expectError(await postWorkOrder(sut, team, { title: '', unitId: 'x', priority: 9 }), 400);
      expect(error.split('; ').map((part) => part.split(' ')[0])).toEqual(['title', 'unitId', 'priority']);
    });
  });

  describe('links', () => {
    it.each([
      ['unitId', 'unitId must reference an existing unit'],
      ['tenantId', 'tenantId must reference an existing tenant'],
      ['contractorId', 'contractorId must reference an existing contractor'],
    ])('refuses a %s of no record, creating nothing and consuming no number', async (field, message) => {
      const fresh = await sut.createTeam();
      const freshUnit = await createUnit(sut, fresh);
      expect((await createWorkOrder(sut, fresh, freshUnit.id)).code).toBe('WO-1');

      const response = await postWorkOrder(sut, fresh, workOrderInput(freshUnit.id, { [field]: randomUUID() }));
      expect(expectError(response, 400)).toBe(message);
      expect(await countWorkOrders(sut, fresh.teamId)).toBe(1);
      expect(await lastNumber(sut, fresh.teamId)).toBe(1);

      expect((await createWorkOrder(sut, fresh, freshUnit.id)).code).toBe('WO-2');
    });

    it('accepts ids in upper case', async () => {
      const tenant = await createTenant(sut, team);
      const body = await createWorkOrder(sut, team, unit.id, {
        unitId: unit.id.toUpperCase(),
        tenantId: tenant.id.toUpperCase(),
      });
      expect([body.unit.id, body.tenant?.id]).toEqual([unit.id, tenant.id]);
    });
  });
});
