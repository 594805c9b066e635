import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  codesOf,
  createTenant,
  createUnit,
  createWorkOrder,
  createWorkOrderContractor,
  getWorkOrder,
  listWorkOrders,
  putWorkOrder,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError, expectFieldError } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('GET /v1/work-orders', () => {
  let sut: TestApp;
  let team: Team;
  let ids: Record<string, string>;
  const byCode: Record<string, WorkOrderBody> = {};

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
    const [unit1, unit2] = [await createUnit(sut, team), await createUnit(sut, team)];
    const [tenant1, tenant2] = [await createTenant(sut, team), await createTenant(sut, team)];
    const [contractor1, contractor2] = [
      await createWorkOrderContractor(sut, team),
      await createWorkOrderContractor(sut, team),
    ];
    ids = {
      unit1: unit1.id,
      unit2: unit2.id,
      tenant1: tenant1.id,
      tenant2: tenant2.id,
      contractor1: contractor1.id,
      contractor2: contractor2.id,
    };

    // WO-1 … WO-4 carry the filtered attributes; WO-5 … WO-12 are plain, so codes WO-1x exist for the search.
    const specs: [Record<string, unknown>, string | undefined][] = [
      [
        { title: 'Broken boiler', unitId: unit1.id, tenantId: tenant1.id, contractorId: contractor1.id, priority: 0 },
        undefined,
      ],
      [{ title: 'Leaking tap 100%', unitId: unit1.id, tenantId: tenant2.id, priority: '1' }, 'in_progress'],
      [{ title: 'Mould_in bathroom', unitId: unit2.id, contractorId: contractor2.id, priority: 3 }, 'completed'],
      [{ title: 'Door lock stuck', unitId: unit2.id, tenantId: tenant1.id }, 'cancelled'],
    ];
    for (let n = 5; n <= 12; n += 1)
      specs.push([{ title: `Routine check ${n}`, unitId: unit1.id, priority: 3 }, undefined]);
    for (const [body, status] of specs) {
      const created = await createWorkOrder(sut, team, body.unitId as string, body);
      const final = status ? (await putWorkOrder(sut, team, created.id, { status })).body.data : created;
      byCode[created.code] = final as WorkOrderBody;
    }
    // Groups of three share a creation time, so the order by id within a tie is exercised too.
    await sut.sql(
      `UPDATE work_orders SET created_at = timestamptz '2030-01-01T00:00:00Z' + ((number - 1) / 3) * interval '1 second'
       WHERE team_id = $1`,
      [team.teamId],
    );
  });
  afterAll(() => sut.close());

  const sorted = (codes: string[]): string[] => [...codes].sort();
  const find = async (query: Record<string, string | number>): Promise<string[]> =>
    sorted(codesOf(await listWorkOrders(sut, team, { pageSize: 50, ...query })));

  it('lists newest first, ties by id descending, with the same records GET answers', async () => {
    const expected = await sut.sql<{ code: string }>(
      'SELECT code FROM work_orders WHERE team_id = $1 ORDER BY created_at DESC, id DESC',
      [team.teamId],
    );
    const response = await listWorkOrders(sut, team, { pageSize: 50 });
    expect(codesOf(response)).toEqual(expected.map((row) => row.code));
    expect(response.body.pagination).toEqual({ total: 12, page: 1, pageSize: 50, pageCount: 1 });
    const first = response.body.data.find((item: WorkOrderBody) => item.code === 'WO-1') as WorkOrderBody;
    expect(first).toEqual((await getWorkOrder(sut, team, byCode['WO-1'].id)).body.data);
    expect(first.contractor?.id).toBe(ids.contractor1);
  });

  it('pages without overlap or gaps, and answers an empty page past the end with the true totals', async () => {
    const all = codesOf(await listWorkOrders(sut, team, { pageSize: 50 }));
    const pages = [];
    for (const page of [1, 2, 3]) {
      const response = await listWorkOrders(sut, team, { page, pageSize: 5 });
      expect(response.body.pagination).toEqual({ total: 12, page, pageSize: 5, pageCount: 3 });
      pages.push(...codesOf(response));
    }
    expect(pages).toEqual(all);
    const past = await listWorkOrders(sut, team, { page: 4, pageSize: 5 });
    expect(past.body).toEqual({ data: [], pagination: { total: 12, page: 4, pageSize: 5, pageCount: 3 } });
  });

  it('defaults to page 1 of 20', async () => {
    const response = await listWorkOrders(sut, team);
    expect(response.body.pagination).toEqual({ total: 12, page: 1, pageSize: 20, pageCount: 1 });
  });

  it.each([
    ['page', { page: 0 }],
    ['page', { page: 'two' }],
    ['pageSize', { pageSize: 51 }],
    ['pageSize', { pageSize: 0 }],
    ['status', { status: 'done' }],
    ['status', { status: 'reported,done' }],
    ['priority', { priority: '4' }],
    ['priority', { priority: 'high' }],
    ['unitId', { unitId: 'unit-1' }],
    ['tenantId', { tenantId: '123' }],
    ['contractorId', { contractorId: 'x' }],
    ['search', { search: text(201) }],
  ])('refuses a bad %s (%j)', async (field, query) => {
    expectFieldError(await listWorkOrders(sut, team, query), field);
  });

  it('refuses an unknown query parameter', async () => {
    expect(expectError(await listWorkOrders(sut, team, { colour: 'red' }), 400)).toBe(
      'query parameter colour is not allowed',
    );
  });

  describe('search', () => {
    it.each([
      ['boiler', ['WO-1']],
      ['BOILER', ['WO-1']],
      ['  boiler  ', ['WO-1']],
      ['ROUTINE CHECK 1', ['WO-10', 'WO-11', 'WO-12']],
      ['wo-1', ['WO-1', 'WO-10', 'WO-11', 'WO-12']],
      ['Wo-12', ['WO-12']],
      ['WO-4', ['WO-4']],
      ['%', ['WO-2']],
      ['100%', ['WO-2']],
      ['_', ['WO-3']],
      ['mould_in', ['WO-3']],
      ['m%d', []],
      ['b_iler', []],
      ['nothing like this', []],
    ])('%j matches %j', async (search, expected) => {
      expect(await find({ search })).toEqual(sorted(expected));
    });

    it('treats an empty search as no filter', async () => {
      expect(await find({ search: '   ' })).toHaveLength(12);
    });

    it('does not match across the title and the code', async () => {
      // "Broken boiler" + separator + "WO-1": a match spanning both would find WO-1.
      expect(await find({ search: 'boilerWO-1' })).toEqual([]);
      expect(await find({ search: 'boiler WO-1' })).toEqual([]);
    });
  });

  describe('filters', () => {
    it.each([
      [{ status: 'reported' }, ['WO-1', 'WO-5', 'WO-6', 'WO-7', 'WO-8', 'WO-9', 'WO-10', 'WO-11', 'WO-12']],
      [{ status: 'in_progress' }, ['WO-2']],
      [{ status: 'completed,cancelled' }, ['WO-3', 'WO-4']],
      [{ status: ' in_progress , completed ' }, ['WO-2', 'WO-3']],
      [{ priority: '0' }, ['WO-1']],
      [{ priority: '0,1' }, ['WO-1', 'WO-2']],
      [{ priority: '2' }, ['WO-4']],
      [{ priority: 3, status: 'completed' }, ['WO-3']],
      [{ search: 'wo-1', priority: '3' }, ['WO-10', 'WO-11', 'WO-12']],
    ])('%j finds %j', async (query, expected) => {
      expect(await find(query)).toEqual(sorted(expected));
    });

    it.each([
      ['unit1', 'unitId', ['WO-1', 'WO-2', 'WO-5', 'WO-6', 'WO-7', 'WO-8', 'WO-9', 'WO-10', 'WO-11', 'WO-12']],
      ['unit2', 'unitId', ['WO-3', 'WO-4']],
      ['tenant1', 'tenantId', ['WO-1', 'WO-4']],
      ['tenant2', 'tenantId', ['WO-2']],
      ['contractor1', 'contractorId', ['WO-1']],
      ['contractor2', 'contractorId', ['WO-3']],
    ])('%s as %s finds %j', async (record, parameter, expected) => {
      expect(await find({ [parameter]: ids[record] })).toEqual(sorted(expected));
    });

    it('combines filters with AND', async () => {
      expect(await find({ unitId: ids.unit2, tenantId: ids.tenant1 })).toEqual(['WO-4']);
      expect(await find({ unitId: ids.unit1, status: 'cancelled' })).toEqual([]);
      expect(await find({ tenantId: ids.tenant1, search: 'door' })).toEqual(['WO-4']);
    });

    it('answers an empty page for a UUID of no record', async () => {
      const response = await listWorkOrders(sut, team, { unitId: randomUUID() });
      expect(response.body).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
    });

    it('reflects a changed link', async () => {
      const moved = byCode['WO-12'];
      expect((await putWorkOrder(sut, team, moved.id, { tenantId: ids.tenant2 })).status).toBe(200);
      expect(await find({ tenantId: ids.tenant2 })).toEqual(sorted(['WO-2', 'WO-12']));
      expect((await putWorkOrder(sut, team, moved.id, { tenantId: null })).status).toBe(200);
      expect(await find({ tenantId: ids.tenant2 })).toEqual(['WO-2']);
    });
  });
});
