import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import {
  createTenant,
  getTenant,
  linkedUnitIds,
  postTenant,
  putTenant,
  storedLinks,
  tenantInput,
  type TenantBody,
} from './factories/tenants.js';
import { createUnit, getUnit, listUnits, putUnit, type UnitBody } from './factories/units.js';
import { expectError, expectFieldError, UUID } from './support/assertions.js';

describe('Tenant–unit links (unitIds, tenantUnits)', () => {
  let sut: TestApp;
  let team: Team;
  let units: UnitBody[];
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
    units = [];
    for (let i = 0; i < 5; i += 1) units.push(await createUnit(sut, team));
  });
  afterAll(() => sut.close());

  const ids = (...indexes: number[]): string[] => indexes.map((i) => units[i].id);

  describe('on create', () => {
    it('links the given units in the order given, with the units\u2019 addresses', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(2, 0, 1) });
      expect(tenant.tenantUnits).toEqual(
        [2, 0, 1].map((i) => ({
          id: expect.stringMatching(UUID),
          unit: { id: units[i].id, fullAddress: units[i].fullAddress },
        })),
      );
      expect(new Set(tenant.tenantUnits.map((link) => link.id)).size).toBe(3);
      expect((await getTenant(sut, team, tenant.id)).body.data).toEqual(tenant);
      const rows = await storedLinks(sut, tenant.id);
      expect(rows.map((row) => [row.id, row.team_id, row.unit_id])).toEqual(
        tenant.tenantUnits.map((l) => [l.id, team.teamId, l.unit.id]),
      );
    });

    it('shows each link from the unit with the same id and the tenant\u2019s name and email', async () => {
      const tenant = await createTenant(sut, team, {
        firstName: 'Mo',
        lastName: 'Farah',
        email: 'mo@example.com',
        unitIds: ids(3),
      });
      const unit = (await getUnit(sut, team, units[3].id)).body.data as UnitBody;
      expect(unit.tenantUnits).toContainEqual({
        id: tenant.tenantUnits[0].id,
        tenant: { id: tenant.id, firstName: 'Mo', lastName: 'Farah', email: 'mo@example.com' },
      });
    });

    it('counts duplicates once, whatever their letter case', async () => {
      const tenant = await createTenant(sut, team, {
        unitIds: [units[1].id, units[0].id, units[1].id.toUpperCase(), units[0].id],
      });
      expect(linkedUnitIds(tenant)).toEqual(ids(1, 0));
    });

    it('accepts an empty list and an omitted one', async () => {
      expect((await createTenant(sut, team, { unitIds: [] })).tenantUnits).toEqual([]);
      expect((await createTenant(sut, team)).tenantUnits).toEqual([]);
    });

    it('accepts 100 ids (here one unit 100 times) and refuses 101', async () => {
      expect(linkedUnitIds(await createTenant(sut, team, { unitIds: Array(100).fill(units[0].id) }))).toEqual(ids(0));
      const response = await postTenant(sut, team, tenantInput({ unitIds: Array(101).fill(units[0].id) }));
      expect(expectFieldError(response, 'unitIds')).toBe('unitIds must contain no more than 100 elements');
    });

    it.each([
      [null, 'unitIds must be an array'],
      ['00000000-0000-4000-8000-000000000000', 'unitIds must be an array'],
      [{ 0: '00000000-0000-4000-8000-000000000000' }, 'unitIds must be an array'],
      [['not-a-uuid'], 'each value in unitIds must be a UUID'],
      [[42], 'each value in unitIds must be a UUID'],
    ])('refuses unitIds %j', async (unitIds, message) => {
      expect(expectError(await postTenant(sut, team, tenantInput({ unitIds })), 400)).toBe(message);
    });

    it('refuses a unit id of no unit, naming its position, and creates nothing', async () => {
      const before = await sut.sql(
        'SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM tenant_units)::int AS links',
      );
      const response = await postTenant(
        sut,
        team,
        tenantInput({ unitIds: [units[0].id, '00000000-0000-4000-8000-000000000001'] }),
      );
      expect(expectFieldError(response, 'unitIds.1')).toBe('unitIds.1 must reference an existing unit');
      expect(
        await sut.sql(
          'SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM tenant_units)::int AS links',
        ),
      ).toEqual(before);
    });
  });

  describe('on update', () => {
    it('replaces the links: kept ones keep their id and age, removed ones are deleted, new ones come last', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(0, 1, 2) });
      const before = await storedLinks(sut, tenant.id);
      const response = await putTenant(sut, team, tenant.id, { unitIds: ids(4, 2, 0, 3) });
      expect(response.status).toBe(200);
      const data = response.body.data as TenantBody;
      expect(linkedUnitIds(data)).toEqual(ids(0, 2, 4, 3));
      expect(data.tenantUnits.slice(0, 2)).toEqual([tenant.tenantUnits[0], tenant.tenantUnits[2]]);
      const after = await storedLinks(sut, tenant.id);
      expect(after.slice(0, 2)).toEqual([before[0], before[2]]);
      expect(after.map((row) => row.id)).not.toContain(before[1].id);
      expect(after.map((row) => row.id)).toEqual(data.tenantUnits.map((link) => link.id));
      expect((await getTenant(sut, team, tenant.id)).body.data).toEqual(data);
    });

    it('keeps the links when unitIds is omitted and removes them all with []', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(0, 1) });
      const renamed = (await putTenant(sut, team, tenant.id, { firstName: 'Kept' })).body.data as TenantBody;
      expect(renamed.tenantUnits).toEqual(tenant.tenantUnits);
      const cleared = await putTenant(sut, team, tenant.id, { unitIds: [] });
      expect(cleared.body.data.tenantUnits).toEqual([]);
      expect(await storedLinks(sut, tenant.id)).toEqual([]);
    });

    it('sending the same links again changes none of them but moves updatedAt', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(1, 0) });
      const response = await putTenant(sut, team, tenant.id, { unitIds: ids(0, 1, 0) });
      expect(response.body.data).toEqual({ ...tenant, updatedAt: expect.any(String) });
      expect(response.body.data.updatedAt).not.toBe(tenant.updatedAt);
    });

    it('refuses a bad unit id and changes nothing, neither fields nor links', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(0) });
      const refusals: [unknown, string][] = [
        [[units[1].id, '00000000-0000-4000-8000-000000000002'], 'unitIds.1 must reference an existing unit'],
        [['x'], 'each value in unitIds must be a UUID'],
        [null, 'unitIds must be an array'],
        [Array(101).fill(units[1].id), 'unitIds must contain no more than 100 elements'],
      ];
      for (const [unitIds, message] of refusals) {
        expect(expectError(await putTenant(sut, team, tenant.id, { firstName: 'Changed', unitIds }), 400)).toBe(
          message,
        );
      }
      expect((await getTenant(sut, team, tenant.id)).body.data).toEqual(tenant);
    });

    it('answers 404 for a missing tenant even when a unit id is bad too', async () => {
      const response = await putTenant(sut, team, '00000000-0000-4000-8000-000000000003', {
        unitIds: ['00000000-0000-4000-8000-000000000004'],
      });
      expect(expectError(response, 404)).toBe('Tenant not found');
    });

    it('leaves one whole set of links when two replacements race', async () => {
      const tenant = await createTenant(sut, team, { unitIds: ids(0) });
      const [first, second] = await Promise.all([
        putTenant(sut, team, tenant.id, { unitIds: ids(1, 2) }),
        putTenant(sut, team, tenant.id, { unitIds: ids(3, 4) }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const final = linkedUnitIds((await getTenant(sut, team, tenant.id)).body.data);
      expect([ids(1, 2), ids(3, 4)]).toContainEqual(final);
    });
  });

  describe('seen from the unit', () => {
    it('lists the unit\u2019s tenants oldest link first and follows changes on both sides', async () => {
      const unit = await createUnit(sut, team, { addressLine1: '1 Shared House' });
      const first = await createTenant(sut, team, { firstName: 'First', unitIds: [unit.id] });
      const second = await createTenant(sut, team, { firstName: 'Second', email: 's@example.com', unitIds: [unit.id] });
      const tenantsOf = async (): Promise<string[]> =>
        ((await getUnit(sut, team, unit.id)).body.data as UnitBody).tenantUnits.map((link) => link.tenant.firstName);
      expect(await tenantsOf()).toEqual(['First', 'Second']);

      await putTenant(sut, team, first.id, { firstName: 'Renamed', unitIds: [unit.id] });
      expect(await tenantsOf()).toEqual(['Renamed', 'Second']);

      await putTenant(sut, team, first.id, { unitIds: [] });
      await putTenant(sut, team, first.id, { unitIds: [unit.id] });
      const relinked = (await getTenant(sut, team, first.id)).body.data as TenantBody;
      expect(relinked.tenantUnits[0].id).not.toBe(first.tenantUnits[0].id);
      expect(await tenantsOf()).toEqual(['Second', 'Renamed']);

      await putUnit(sut, team, unit.id, { addressLine1: '2 Shared House' });
      expect((await getTenant(sut, team, second.id)).body.data.tenantUnits[0].unit.fullAddress).toMatch(
        /^2 Shared House, /,
      );
    });

    it('lists every unit with its own links, in one page', async () => {
      const a = await createUnit(sut, team, { addressLine1: '1 Page Street' });
      const b = await createUnit(sut, team, { addressLine1: '2 Page Street' });
      const tenant = await createTenant(sut, team, { unitIds: [b.id, a.id] });
      await createTenant(sut, team, { unitIds: [b.id] });
      const page = (await listUnits(sut, team, { search: 'page street' })).body.data as UnitBody[];
      const linksOf = (unit: UnitBody) => page.find((u) => u.id === unit.id)?.tenantUnits.map((l) => l.id);
      expect(linksOf(a)).toEqual([tenant.tenantUnits[1].id]);
      expect(linksOf(b)).toHaveLength(2);
      expect(linksOf(b)?.[0]).toBe(tenant.tenantUnits[0].id);
    });
  });

  describe('team isolation', () => {
    let other: Team;
    let otherUnit: UnitBody;
    beforeAll(async () => {
      other = await sut.createTeam('Other');
      otherUnit = await createUnit(sut, other);
    });

    it('refuses to link to another team\u2019s unit on create and update, and changes nothing', async () => {
      const create = await postTenant(sut, other, tenantInput({ unitIds: [otherUnit.id, units[0].id] }));
      expect(expectFieldError(create, 'unitIds.1')).toBe('unitIds.1 must reference an existing unit');
      const tenant = await createTenant(sut, other, { unitIds: [otherUnit.id] });
      const update = await putTenant(sut, other, tenant.id, { unitIds: [units[0].id] });
      expect(expectFieldError(update, 'unitIds.0')).toBe('unitIds.0 must reference an existing unit');
      expect((await getTenant(sut, other, tenant.id)).body.data).toEqual(tenant);
      const [{ count }] = await sut.sql(
        'SELECT count(*)::int AS count FROM tenant_units WHERE unit_id = $1 AND team_id = $2',
        [units[0].id, other.teamId],
      );
      expect(count).toBe(0);
    });

    it('stores each link with its tenant\u2019s team', async () => {
      const tenant = await createTenant(sut, other, { unitIds: [otherUnit.id] });
      expect((await storedLinks(sut, tenant.id)).map((row) => row.team_id)).toEqual([other.teamId]);
    });
  });
});
