import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createUnit, listUnits, putUnit, type UnitBody } from './factories/units.js';
import { idsOf } from './support/assertions.js';

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

    it('finds a unit by its new address after an update, and no longer by the old one', async () => {
      const unit = await createUnit(sut, team, { addressLine1: '1 Old Mill Yard', city: 'Bath' });
      expect((await putUnit(sut, team, unit.id, { addressLine1: '1 New Wharf' })).status).toBe(200);
      expect(idsOf(await listUnits(sut, team, { search: 'new wharf' }))).toEqual([unit.id]);
      expect(idsOf(await listUnits(sut, team, { search: 'old mill' }))).toEqual([]);
    });
  });

  it('never finds another team\u2019s unit by its address', async () => {
    const [owner, other] = [await sut.createTeam('Owner'), await sut.createTeam('Other')];
    const unit = await createUnit(sut, owner, { addressLine1: '77 Private Drive', city: 'Little Whinging' });
    expect((await listUnits(sut, other, { search: 'private drive' })).body.pagination.total).toBe(0);
    expect(idsOf(await listUnits(sut, owner, { search: 'private drive' }))).toEqual([unit.id]);
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
        'externalRef',
        'page',
        'pageSize',
        'search',
        'sort',
        'updatedSince',
      ]);
    });
  });
});
