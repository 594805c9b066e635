import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  codesOf,
  createTenant,
  createUnit,
  createWorkOrder,
  createWorkOrderContractor,
  getWorkOrder,
  listWorkOrders,
  postWorkOrder,
  putWorkOrder,
  workOrderInput,
  type TenantRow,
  type UnitRow,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError } from './support/assertions.js';

describe('work orders across teams', () => {
  let sut: TestApp;
  let owner: Team;
  let other: Team;
  let ownerUnit: UnitRow;
  let ownerTenant: TenantRow;
  let ownerContractor: { id: string; companyName: string };
  let ownerWorkOrder: WorkOrderBody;
  let otherUnit: UnitRow;
  let otherWorkOrder: WorkOrderBody;

  beforeAll(async () => {
    sut = await createTestApp();
    owner = await sut.createTeam('Owner');
    other = await sut.createTeam('Other');
    ownerUnit = await createUnit(sut, owner);
    ownerTenant = await createTenant(sut, owner);
    ownerContractor = await createWorkOrderContractor(sut, owner);
    ownerWorkOrder = await createWorkOrder(sut, owner, ownerUnit.id, {
      title: 'Owner secret flood',
      tenantId: ownerTenant.id,
      contractorId: ownerContractor.id,
    });
    otherUnit = await createUnit(sut, other);
    otherWorkOrder = await createWorkOrder(sut, other, otherUnit.id, { title: 'Other dripping gutter' });
  });
  afterAll(() => sut.close());

  it('numbers each team from WO-1', () => {
    expect([ownerWorkOrder.code, otherWorkOrder.code]).toEqual(['WO-1', 'WO-1']);
  });

  it("never finds another team's work orders by code or title", async () => {
    expect(codesOf(await listWorkOrders(sut, other, { search: 'WO-1' }))).toEqual(['WO-1']);
    expect((await listWorkOrders(sut, other, { search: 'WO-1' })).body.data[0].id).toBe(otherWorkOrder.id);
    expect((await listWorkOrders(sut, other, { search: 'secret flood' })).body.pagination.total).toBe(0);
    expect((await listWorkOrders(sut, owner, { search: 'secret flood' })).body.pagination.total).toBe(1);
  });

  it("finds nothing when filtering by another team's unit, tenant or contractor", async () => {
    const queries: Record<string, string>[] = [
      { unitId: ownerUnit.id },
      { tenantId: ownerTenant.id },
      { contractorId: ownerContractor.id },
    ];
    for (const query of queries) {
      const response = await listWorkOrders(sut, other, query);
      expect(response.body).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
      expect((await listWorkOrders(sut, owner, query)).body.pagination.total).toBe(1);
    }
  });

  describe("links to another team's records", () => {
    const links = (): [string, Record<string, string>, string][] => [
      ['unitId', { unitId: ownerUnit.id }, 'unitId must reference an existing unit'],
      ['tenantId', { tenantId: ownerTenant.id }, 'tenantId must reference an existing tenant'],
      ['contractorId', { contractorId: ownerContractor.id }, 'contractorId must reference an existing contractor'],
    ];

    it('refuses them on create, creating nothing and consuming no number', async () => {
      for (const [, link, message] of links()) {
        const response = await postWorkOrder(sut, other, workOrderInput(otherUnit.id, link));
        expect(expectError(response, 400)).toBe(message);
      }
      expect((await listWorkOrders(sut, other)).body.pagination.total).toBe(1);
      expect((await createWorkOrder(sut, other, otherUnit.id)).code).toBe('WO-2');
    });

    it('refuses them on update, changing nothing', async () => {
      const before = (await getWorkOrder(sut, other, otherWorkOrder.id)).body.data as WorkOrderBody;
      for (const [, link, message] of links()) {
        const response = await putWorkOrder(sut, other, otherWorkOrder.id, { title: 'Changed', ...link });
        expect(expectError(response, 400)).toBe(message);
      }
      expect((await getWorkOrder(sut, other, otherWorkOrder.id)).body.data).toEqual(before);
    });
  });
});
