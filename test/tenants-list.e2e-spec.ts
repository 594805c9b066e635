import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createTenant, getTenant, listTenants, putTenant, type TenantBody } from './factories/tenants.js';
import { createUnit, putUnit, type UnitBody } from './factories/units.js';
import { expectError, expectFieldError, idsOf, newestFirst } from './support/assertions.js';
import { text } from './support/inputs.js';

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

    it('accepts a search of 200 characters and refuses 201 or a control character', async () => {
      expect(idsOf(await listTenants(sut, team, { search: text(200) }))).toEqual([]);
      expectFieldError(await listTenants(sut, team, { search: text(201) }), 'search');
      expectFieldError(await listTenants(sut, team, { search: 'Lee\u001fAnn' }), 'search');
    });
  });

  describe('paging', () => {
    let team: Team;
    let created: TenantBody[];
    beforeAll(async () => {
      team = await sut.createTeam();
      const unit = await createUnit(sut, team);
      created = [];
      for (let i = 0; i < 5; i += 1) created.push(await createTenant(sut, team, { unitIds: i % 2 ? [unit.id] : [] }));
    });

    it('splits the list into stable pages, newest first, with true totals', async () => {
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const response = await listTenants(sut, team, { page, pageSize: 2 });
        expect(response.body.pagination).toEqual({ total: 5, page, pageSize: 2, pageCount: 3 });
        seen.push(...idsOf(response));
      }
      expect(seen).toEqual(newestFirst(created));
      const all = (await listTenants(sut, team)).body;
      expect(all.data).toEqual(newestFirst(created).map((id) => created.find((t) => t.id === id)));
      expect(all.pagination).toEqual({ total: 5, page: 1, pageSize: 20, pageCount: 1 });
    });

    it('answers a page past the end with no records and the true totals', async () => {
      const response = await listTenants(sut, team, { page: 9, pageSize: 2 });
      expect(response.body).toEqual({ data: [], pagination: { total: 5, page: 9, pageSize: 2, pageCount: 3 } });
    });

    it.each([
      [{ pageSize: 51 }, 'pageSize'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ page: 0 }, 'page'],
      [{ page: 'two' }, 'page'],
    ])('refuses %j', async (query, field) => {
      expectFieldError(await listTenants(sut, team, query), field);
    });

    it('refuses an unknown query parameter', async () => {
      expect(expectError(await listTenants(sut, team, { unitId: created[0].id }), 400)).toBe(
        'query parameter unitId is not allowed',
      );
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

    it('answers another team\u2019s tenant exactly as a missing one on GET and PUT, and changes nothing', async () => {
      expect(expectError(await getTenant(sut, other, tenant.id), 404)).toBe('Tenant not found');
      expect(expectError(await putTenant(sut, other, tenant.id, { firstName: 'Moriarty' }), 404)).toBe(
        'Tenant not found',
      );
      expect(expectError(await putTenant(sut, other, tenant.id, { unitIds: [] }), 404)).toBe('Tenant not found');
      expect((await getTenant(sut, owner, tenant.id)).body.data).toEqual(tenant);
    });

    it('never lists or finds another team\u2019s tenants, by name or by unit address', async () => {
      expect(idsOf(await listTenants(sut, other))).toEqual([otherTenant.id]);
      expect(idsOf(await listTenants(sut, other, { search: 'sherlock' }))).toEqual([otherTenant.id]);
      expect(idsOf(await listTenants(sut, other, { search: 'holmes' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, other, { search: 'baker street' }))).toEqual([]);
      expect(idsOf(await listTenants(sut, owner, { search: 'baker street' }))).toEqual([tenant.id]);
    });
  });
});
