import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createTenant, getTenant, listTenants, putTenant, type TenantBody } from './factories/tenants.js';
import { createUnit, putUnit, type UnitBody } from './factories/units.js';
import { expectError, idsOf } from './support/assertions.js';

describe('GET /v1/tenants', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  describe('search', () => {
    let team: Team;
    const tenants: Record<string, TenantBody> = {};
    let harbour: UnitBody;
    let quay: UnitBody;
    beforeAll(async () => {
      team = await sut.createTeam();
      harbour = await createUnit(sut, team, { addressLine1: '3 Harbour View', city: 'Falmouth', postcode: 'TR11 2AA' });
      quay = await createUnit(sut, team, { addressLine1: '9 Harbour Quay', city: 'Falmouth', postcode: 'TR11 3BB' });
      tenants.ann = await createTenant(sut, team, {
        firstName: 'Annabel',
        lastName: 'Lee',
        email: 'al@poe.example',
        phoneNumber: '+44 7700 900001',
      });
      tenants.bob = await createTenant(sut, team, {
        firstName: 'Bob',
        lastName: 'Marley',
        phoneNumber: '020 7946 0999',
        unitIds: [harbour.id],
      });
      tenants.cat = await createTenant(sut, team, {
        firstName: 'Cat',
        lastName: 'Stevens_Jr',
        phoneNumber: '100% reachable',
        unitIds: [harbour.id, quay.id],
      });
      tenants.dee = await createTenant(sut, team, {
        firstName: 'Dee',
        lastName: 'Stevens Jr',
        phoneNumber: '1000',
        notes: 'harbour master',
      });
    });

    it.each([
      ['first name, in another case', 'ANNA', ['ann']],
      ['last name', 'marley', ['bob']],
      ['email', 'poe.example', ['ann']],
      ['phone number, in part', '7946 09', ['bob']],
      ['a linked unit\u2019s fullAddress', 'harbour view', ['bob', 'cat']],
      ['another linked unit\u2019s fullAddress', 'TR11 3BB', ['cat']],
      ['a literal underscore', 'stevens_', ['cat']],
      ['a literal percent sign', '100%', ['cat']],
      ['surrounding spaces, trimmed', '  annabel ', ['ann']],
    ])('matches the %s', async (_, search, expected) => {
      const response = await listTenants(sut, team, { search });
      expect(idsOf(response).sort()).toEqual(expected.map((name) => tenants[name].id).sort());
      expect(response.body.pagination.total).toBe(expected.length);
    });

    it('lists a tenant once even when several of its units and its name match', async () => {
      const response = await listTenants(sut, team, { search: 'harbour' });
      expect(idsOf(response).sort()).toEqual([tenants.bob.id, tenants.cat.id].sort());
      expect(response.body.pagination).toEqual({ total: 2, page: 1, pageSize: 20, pageCount: 1 });
    });

    it('does not search notes, nor text spanning two fields', async () => {
      expect(idsOf(await listTenants(sut, team, { search: 'master' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, team, { search: 'bob marley' }))).toEqual([]);
    });

    it('follows changes to the links and to the units\u2019 addresses', async () => {
      const unit = await createUnit(sut, team, { addressLine1: '5 Lighthouse Lane', city: 'Penzance' });
      const tenant = await createTenant(sut, team, { unitIds: [unit.id] });
      expect(idsOf(await listTenants(sut, team, { search: 'lighthouse' }))).toEqual([tenant.id]);
      await putUnit(sut, team, unit.id, { addressLine1: '5 Beacon Lane' });
      expect(idsOf(await listTenants(sut, team, { search: 'lighthouse' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, team, { search: 'beacon' }))).toEqual([tenant.id]);
      await putTenant(sut, team, tenant.id, { unitIds: [] });
      expect(idsOf(await listTenants(sut, team, { search: 'beacon' }))).toEqual([]);
    });

    it('returns each tenant in full with its own links', async () => {
      const page = (await listTenants(sut, team, { search: 'harbour' })).body.data as TenantBody[];
      expect(page.find((t) => t.id === tenants.cat.id)).toEqual(tenants.cat);
      expect(page.find((t) => t.id === tenants.bob.id)).toEqual(tenants.bob);
    });
  });

  describe('team isolation', () => {
    let owner: Team;
    let other: Team;
    let tenant: TenantBody;
    let otherTenant: TenantBody;
    beforeAll(async () => {
      owner = await sut.createTeam('Owner');
      other = await sut.createTeam('Other');
      const unit = await createUnit(sut, owner, { addressLine1: '221B Baker Street' });
      tenant = await createTenant(sut, owner, { firstName: 'Sherlock', lastName: 'Holmes', unitIds: [unit.id] });
      otherTenant = await createTenant(sut, other, { firstName: 'Sherlock', lastName: 'Other' });
    });

    it('answers a PUT of only another team\u2019s tenant\u2019s links 404, and changes nothing', async () => {
      expect(expectError(await putTenant(sut, other, tenant.id, { unitIds: [] }), 404)).toBe('Tenant not found');
      expect((await getTenant(sut, owner, tenant.id)).body.data).toEqual(tenant);
    });

    it('never finds another team\u2019s tenants, by name or by unit address', async () => {
      expect(idsOf(await listTenants(sut, other, { search: 'sherlock' }))).toEqual([otherTenant.id]);
      expect(idsOf(await listTenants(sut, other, { search: 'holmes' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, other, { search: 'baker street' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, owner, { search: 'baker street' }))).toEqual([tenant.id]);
    });
  });
});
