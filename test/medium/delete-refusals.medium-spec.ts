import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ContractorsService } from '../../apps/api/src/contractors/contractors.service.js';
import { LandlordsService } from '../../apps/api/src/landlords/landlords.service.js';
import { TenantsService } from '../../apps/api/src/tenants/tenants.service.js';
import { UnitsService } from '../../apps/api/src/units/units.service.js';
import { WorkOrdersService } from '../../apps/api/src/work-orders/work-orders.service.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// CONTRACT "DELETE": a unit, tenant or contractor that a work order refers to is refused with a conflict naming
// what refers to it; once free it goes, with its tenant links. Called on the services, against the real schema.

describe('delete refusals', () => {
  let app: MediumApp;
  let teamId: string;

  beforeAll(async () => {
    app = await createMediumApp();
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const workOrders = () => app.get(WorkOrdersService);
  const newUnit = () =>
    app
      .get(UnitsService)
      .create(teamId, { addressLine1: '9 Quay St', city: 'Bristol', postcode: 'BS1', country: 'UK' });

  /** Each referable record: how to make one and the field a work order links to it through. */
  const referable = [
    { name: 'Unit', field: 'unitId', service: () => app.get(UnitsService), make: async () => (await newUnit()).id },
    {
      name: 'Tenant',
      field: 'tenantId',
      service: () => app.get(TenantsService),
      make: async () => (await app.get(TenantsService).create(teamId, { firstName: 'Priya', lastName: 'Shah' })).id,
    },
    {
      name: 'Contractor',
      field: 'contractorId',
      service: () => app.get(ContractorsService),
      make: async () =>
        (await app.get(ContractorsService).create(teamId, { companyName: 'Brightwater', contactName: 'Sam Reed' })).id,
    },
  ] as const;

  it.each(referable)('refuses a $name that a work order refers to, naming it, and keeps it', async (resource) => {
    const id = await resource.make();
    const unitId = resource.field === 'unitId' ? id : (await newUnit()).id;
    const workOrder = await workOrders().create(teamId, { title: 'Referring', unitId, [resource.field]: id });
    await expect(resource.service().remove(teamId, id)).rejects.toMatchObject({
      kind: 'conflict',
      message:
        `${resource.name} is referred to by 1 work order (${workOrder.code}); ` +
        `delete them or change their ${resource.field} first`,
    });
    expect((await resource.service().get(teamId, id)).id).toBe(id);
  });

  it.each(referable)('deletes a $name once no work order refers to it any more', async (resource) => {
    const id = await resource.make();
    const unitId = resource.field === 'unitId' ? id : (await newUnit()).id;
    const workOrder = await workOrders().create(teamId, { title: 'Freed', unitId, [resource.field]: id });
    await workOrders().remove(teamId, workOrder.id);
    await resource.service().remove(teamId, id);
    await expect(resource.service().get(teamId, id)).rejects.toMatchObject({
      kind: 'not_found',
      message: `${resource.name} not found`,
    });
  });

  it('names the first five referring work orders by code, then "…", with the true count', async () => {
    const unit = await newUnit();
    const codes: string[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await workOrders().create(teamId, { title: `WO ${i}`, unitId: unit.id })).code);
    await expect(app.get(UnitsService).remove(teamId, unit.id)).rejects.toMatchObject({
      message: `Unit is referred to by 6 work orders (${codes.slice(0, 5).join(', ')}, …); delete them or change their unitId first`,
    });
  });

  it("takes a unit's tenant links with it, and the tenant stays", async () => {
    const unit = await newUnit();
    const tenant = await app
      .get(TenantsService)
      .create(teamId, { firstName: 'Ada', lastName: 'Lovelace', unitIds: [unit.id] });
    expect(tenant.tenantUnits.map((link) => link.unit.id)).toEqual([unit.id]);
    await app.get(UnitsService).remove(teamId, unit.id);
    expect((await app.get(TenantsService).get(teamId, tenant.id)).tenantUnits).toEqual([]);
  });

  it('always deletes a landlord and a work order', async () => {
    const landlord = await app.get(LandlordsService).create(teamId, { name: 'Harriet Cole' });
    await app.get(LandlordsService).remove(teamId, landlord.id);
    await expect(app.get(LandlordsService).get(teamId, landlord.id)).rejects.toMatchObject({ kind: 'not_found' });
    const workOrder = await workOrders().create(teamId, { title: 'Gone', unitId: (await newUnit()).id });
    await workOrders().remove(teamId, workOrder.id);
    await expect(workOrders().get(teamId, workOrder.id)).rejects.toMatchObject({ message: 'Work order not found' });
  });
});
