import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createUnit, getUnit, listUnits, putUnit, type UnitBody } from './factories/units.js';
import { expectError, expectFieldError, idsOf, newestFirst } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('GET /v1/units', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  describe('search over fullAddress', () => {
    let team: Team;
    const units: Record<string, UnitBody> = {};
    beforeAll(async () => {
      team = await sut.createTeam();
      units.acacia = await createUnit(sut, team, {
        addressLine1: '12 Acacia Avenue',
        area: 'Kingsbridge',
        city: 'Exeter',
        county: 'Devon',
        postcode: 'EX1 1AA',
        country: 'United Kingdom',
      });
      units.underscore = await createUnit(sut, team, {
        addressLine1: 'Unit_7 Dock Road',
        city: 'Hull',
        postcode: 'HU1 2BB',
      });
      units.space = await createUnit(sut, team, {
        addressLine1: 'Unit 7 Dock Road',
        city: 'Hull',
        postcode: 'HU1 2BC',
      });
      units.percent = await createUnit(sut, team, {
        addressLine1: '100% Lane',
        addressLine2: 'Back\\Yard',
        city: 'Derby',
      });
      units.plain = await createUnit(sut, team, { addressLine1: '100 Lane', city: 'Derby', country: 'England' });
    });

    it.each([
      ['the first line, in another case', 'ACACIA avenue', ['acacia']],
      ['the second line', 'back\\yard', ['percent']],
      ['the area', 'kingsbridge', ['acacia']],
      ['the city', 'exeter', ['acacia']],
      ['the county', 'DEVON', ['acacia']],
      ['the postcode, in part', 'ex1 1', ['acacia']],
      ['the country', 'england', ['plain']],
      ['text spanning two parts and their separator', 'Kingsbridge, Exeter', ['acacia']],
      ['a literal underscore', 'unit_7', ['underscore']],
      ['a literal percent sign', '100%', ['percent']],
      ['surrounding spaces, trimmed', '   dock road  ', ['underscore', 'space']],
    ])('matches %s', async (_, search, expected) => {
      const response = await listUnits(sut, team, { search });
      expect(idsOf(response).sort()).toEqual(expected.map((name) => units[name].id).sort());
      expect(response.body.pagination).toEqual({ total: expected.length, page: 1, pageSize: 20, pageCount: 1 });
    });

    it('returns every unit for an empty or blank search', async () => {
      for (const search of ['', '   ']) {
        expect(idsOf(await listUnits(sut, team, { search })).sort()).toEqual(
          Object.values(units)
            .map((u) => u.id)
            .sort(),
        );
      }
    });

    it('returns an empty page with zero totals when nothing matches', async () => {
      const response = await listUnits(sut, team, { search: 'Atlantis' });
      expect(response.body).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
    });

    it('finds a unit by its new address after an update, and no longer by the old one', async () => {
      const unit = await createUnit(sut, team, { addressLine1: '1 Old Mill Yard', city: 'Bath' });
      expect((await putUnit(sut, team, unit.id, { addressLine1: '1 New Wharf' })).status).toBe(200);
      expect(idsOf(await listUnits(sut, team, { search: 'new wharf' }))).toEqual([unit.id]);
      expect(idsOf(await listUnits(sut, team, { search: 'old mill' }))).toEqual([]);
    });

    it('accepts a search of 200 characters and refuses 201', async () => {
      expect(idsOf(await listUnits(sut, team, { search: text(200) }))).toEqual([]);
      expect(expectFieldError(await listUnits(sut, team, { search: text(201) }), 'search')).toBe(
        'search must be shorter than or equal to 200 characters',
      );
    });

    it('returns each unit in full, tenantUnits included', async () => {
      const [first] = (await listUnits(sut, team, { search: 'acacia' })).body.data;
      expect(first).toEqual(units.acacia);
    });
  });

  describe('paging', () => {
    let team: Team;
    let created: UnitBody[];
    beforeAll(async () => {
      team = await sut.createTeam();
      created = [];
      for (let i = 0; i < 5; i += 1) created.push(await createUnit(sut, team));
    });

    it('returns 20 per page by default, newest first (ties by id)', async () => {
      const response = await listUnits(sut, team);
      expect(idsOf(response)).toEqual(newestFirst(created));
      expect(response.body.pagination).toEqual({ total: 5, page: 1, pageSize: 20, pageCount: 1 });
    });

    it('splits the list into stable pages with true totals', async () => {
      const pages = [];
      for (const page of [1, 2, 3]) {
        const response = await listUnits(sut, team, { page, pageSize: 2 });
        expect(response.body.pagination).toEqual({ total: 5, page, pageSize: 2, pageCount: 3 });
        pages.push(...idsOf(response));
      }
      expect(pages).toEqual(newestFirst(created));
    });

    it('answers a page past the end with no records and the true totals', async () => {
      const response = await listUnits(sut, team, { page: 4, pageSize: 2 });
      expect(response.body).toEqual({ data: [], pagination: { total: 5, page: 4, pageSize: 2, pageCount: 3 } });
    });

    it('accepts pageSize 1 and 50', async () => {
      expect(idsOf(await listUnits(sut, team, { pageSize: 1 }))).toHaveLength(1);
      expect(idsOf(await listUnits(sut, team, { pageSize: 50 }))).toHaveLength(5);
    });

    it.each([
      [{ pageSize: 51 }, 'pageSize'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 'ten' }, 'pageSize'],
      [{ page: 0 }, 'page'],
      [{ page: '1.5' }, 'page'],
      [{ page: -1 }, 'page'],
    ])('refuses %j', async (query, field) => {
      expectFieldError(await listUnits(sut, team, query), field);
    });

    it('refuses an unknown query parameter', async () => {
      expect(expectError(await listUnits(sut, team, { city: 'Leeds' }), 400)).toBe(
        'query parameter city is not allowed',
      );
    });
  });

  describe('team isolation', () => {
    let owner: Team;
    let other: Team;
    let unit: UnitBody;
    beforeAll(async () => {
      owner = await sut.createTeam('Owner');
      other = await sut.createTeam('Other');
      unit = await createUnit(sut, owner, { addressLine1: '77 Private Drive', city: 'Little Whinging' });
      await createUnit(sut, other, { addressLine1: '4 Public Way' });
    });

    it('answers another team\u2019s unit exactly as a missing one on GET and PUT, and changes nothing', async () => {
      expect(expectError(await getUnit(sut, other, unit.id), 404)).toBe('Unit not found');
      expect(expectError(await putUnit(sut, other, unit.id, { city: 'Elsewhere' }), 404)).toBe('Unit not found');
      expect((await getUnit(sut, owner, unit.id)).body.data).toEqual(unit);
    });

    it('never lists or finds another team\u2019s units', async () => {
      const all = await listUnits(sut, other);
      expect(all.body.data.map((u: UnitBody) => u.teamId)).toEqual([other.teamId]);
      expect(all.body.pagination.total).toBe(1);
      expect((await listUnits(sut, other, { search: 'private drive' })).body.pagination.total).toBe(0);
      expect(idsOf(await listUnits(sut, owner, { search: 'private drive' }))).toEqual([unit.id]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the unit schema, the list and the errors of each route', async () => {
      const document = (await sut.http().get('/v1/openapi.json')).body;
      const schemas = document.components.schemas;
      // Request bodies are named under requestBodies, so generated clients keep defaulted fields optional.
      const createUnit = document.components.requestBodies.CreateUnitDto.content['application/json'].schema;
      expect(schemas.UnitResponse.properties).toMatchObject({
        id: { type: 'string', format: 'uuid' },
        addressLine2: { type: 'string', nullable: true },
        county: { type: 'string', nullable: true },
        area: { type: 'string', nullable: true },
        tenantUnits: { type: 'array', items: { $ref: '#/components/schemas/UnitTenantLinkResponse' } },
        createdAt: { type: 'string', format: 'date-time' },
      });
      expect(schemas.LinkedTenantResponse.properties.email).toMatchObject({
        type: 'string',
        format: 'email',
        nullable: true,
      });
      expect(createUnit.required.sort()).toEqual(['addressLine1', 'city', 'country', 'postcode']);
      expect(createUnit.properties.postcode).toMatchObject({ type: 'string', maxLength: 80 });
      const paths = document.paths;
      expect(Object.keys(paths['/v1/units']).sort()).toEqual(['get', 'post']);
      expect(Object.keys(paths['/v1/units/{unitId}']).sort()).toEqual(['delete', 'get', 'put']);
      expect(Object.keys(paths['/v1/units'].post.responses)).toEqual(
        expect.arrayContaining(['201', '400', '401', '413', '429']),
      );
      expect(Object.keys(paths['/v1/units/{unitId}'].put.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '404', '429']),
      );
      expect(paths['/v1/units'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
        'page',
        'pageSize',
        'search',
        'sort',
        'updatedSince',
      ]);
    });
  });
});
