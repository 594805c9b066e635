import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createUnit, getUnit, postUnit, putUnit, UNIT_FIELDS, UNIT_KEYS, unitInput } from './factories/units.js';
import { expectError, expectFieldError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('Units: create, read, update', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  describe('POST /v1/units', () => {
    it('returns 201 with every field, omitted optional parts as null and no links', async () => {
      const response = await postUnit(sut, team, {
        addressLine1: '10 Downing Street',
        city: 'London',
        country: 'United Kingdom',
        postcode: 'SW1A 2AA',
      });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['data']);
      const data = response.body.data;
      expect(Object.keys(data)).toEqual(UNIT_KEYS);
      expect(data).toEqual({
        id: expect.stringMatching(UUID),
        teamId: team.teamId,
        externalRef: null,
        fullAddress: '10 Downing Street, London, SW1A 2AA, United Kingdom',
        addressLine1: '10 Downing Street',
        addressLine2: null,
        city: 'London',
        county: null,
        country: 'United Kingdom',
        postcode: 'SW1A 2AA',
        area: null,
        tenantUnits: [],
        createdAt: expect.stringMatching(ISO_WITH_MS),
        updatedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expect(data.updatedAt).toBe(data.createdAt);
      const read = await getUnit(sut, team, data.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ data });
      const [row] = await sut.sql('SELECT team_id, full_address FROM units WHERE id = $1', [data.id]);
      expect(row).toEqual({ team_id: team.teamId, full_address: data.fullAddress });
    });

    it.each([
      [
        'every part, in the order line 1, line 2, area, city, county, postcode, country',
        {
          addressLine1: 'Flat 2',
          addressLine2: '5 Elm Road',
          area: 'Headingley',
          city: 'Leeds',
          county: 'West Yorkshire',
          postcode: 'LS6 3AA',
          country: 'UK',
        },
        'Flat 2, 5 Elm Road, Headingley, Leeds, West Yorkshire, LS6 3AA, UK',
      ],
      [
        'line 2 and county only',
        {
          addressLine1: '1 Quay St',
          addressLine2: 'Unit 4',
          city: 'Bristol',
          county: 'Avon',
          postcode: 'BS1 4DJ',
          country: 'UK',
        },
        '1 Quay St, Unit 4, Bristol, Avon, BS1 4DJ, UK',
      ],
      [
        'area only',
        { addressLine1: '7 Hill Rd', area: 'Clifton', city: 'Bristol', postcode: 'BS8 1AA', country: 'UK' },
        '7 Hill Rd, Clifton, Bristol, BS8 1AA, UK',
      ],
      [
        'blank and null optional parts left out',
        {
          addressLine1: '3 Bay Rd',
          addressLine2: '  ',
          area: null,
          county: '',
          city: 'Cardiff',
          postcode: 'CF10 1AA',
          country: 'Wales',
        },
        '3 Bay Rd, Cardiff, CF10 1AA, Wales',
      ],
      [
        'trimmed parts',
        {
          addressLine1: '  9 Low St ',
          city: '\tYork ',
          postcode: ' YO1 7HH',
          country: 'UK\n',
          county: ' North Yorkshire ',
        },
        '9 Low St, York, North Yorkshire, YO1 7HH, UK',
      ],
    ])('composes fullAddress from %s', async (_, body, fullAddress) => {
      const data = (await postUnit(sut, team, body)).body.data;
      expect(data.fullAddress).toBe(fullAddress);
    });

    it('trims every part and stores blank optional parts as null', async () => {
      const data = await createUnit(sut, team, {
        addressLine1: ' 4 Rye Close ',
        addressLine2: ' ',
        county: '',
        area: '\n',
      });
      expect(data).toMatchObject({ addressLine1: '4 Rye Close', addressLine2: null, county: null, area: null });
      const [row] = await sut.sql('SELECT address_line1, address_line2, county, area FROM units WHERE id = $1', [
        data.id,
      ]);
      expect(row).toEqual({ address_line1: '4 Rye Close', address_line2: null, county: null, area: null });
    });

    it.each(UNIT_FIELDS)('accepts $field at $max characters and refuses one more', async ({ field, max }) => {
      const atLimit = await postUnit(sut, team, unitInput({ [field]: text(max) }));
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data[field]).toBe(text(max));
      const over = await postUnit(sut, team, unitInput({ [field]: text(max + 1) }));
      expect(expectFieldError(over, field)).toBe(`${field} must be shorter than or equal to ${max} characters`);
    });

    it.each(UNIT_FIELDS.filter((f) => f.required))(
      'requires $field: missing, empty, blank or null is 400',
      async ({ field }) => {
        for (const value of [undefined, '', '   ', null]) {
          const body = unitInput({ [field]: value });
          if (value === undefined) delete body[field];
          expectFieldError(await postUnit(sut, team, body), field);
        }
      },
    );

    it.each(UNIT_FIELDS)('refuses a non-string $field', async ({ field }) => {
      expect(expectFieldError(await postUnit(sut, team, unitInput({ [field]: 12 })), field)).toBe(
        `${field} must be a string`,
      );
    });

    it('refuses line1, a near miss of addressLine1', async () => {
      const response = await postUnit(sut, team, unitInput({ line1: '1 Main St' }));
      expect(expectFieldError(response, 'line1')).toBe('property line1 should not exist');
    });

    it('names every failing field, joined with "; "', async () => {
      const error = expectError(await postUnit(sut, team, { addressLine2: 5 }), 400);
      expect(
        error
          .split('; ')
          .map((part) => part.split(' ')[0])
          .sort(),
      ).toEqual(['addressLine1', 'addressLine2', 'city', 'country', 'postcode'].sort());
    });

    it('refuses malformed JSON and a body that is not an object', async () => {
      const malformed = await sut
        .http()
        .post('/v1/units')
        .set(...bearer(team))
        .set('Content-Type', 'application/json')
        .send('{"addressLine1":');
      expectError(malformed, 400);
      expectError(await postUnit(sut, team, [unitInput()]), 400);
    });
  });

  describe('PUT /v1/units/{unitId}', () => {
    it('changes only the given parts, recomputes fullAddress and moves updatedAt', async () => {
      const unit = await createUnit(sut, team, {
        addressLine1: '2 Park Row',
        addressLine2: 'Floor 3',
        city: 'Leeds',
        postcode: 'LS1 5HD',
        country: 'UK',
      });
      const response = await putUnit(sut, team, unit.id, { city: 'Bradford', area: 'City Centre' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...unit,
        city: 'Bradford',
        area: 'City Centre',
        fullAddress: '2 Park Row, Floor 3, City Centre, Bradford, LS1 5HD, UK',
        updatedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(unit.updatedAt));
      expect((await getUnit(sut, team, unit.id)).body).toEqual(response.body);
      const [row] = await sut.sql('SELECT full_address FROM units WHERE id = $1', [unit.id]);
      expect(row.full_address).toBe('2 Park Row, Floor 3, City Centre, Bradford, LS1 5HD, UK');
    });

    it('recomputes fullAddress after each change, in turn', async () => {
      const unit = await createUnit(sut, team, {
        addressLine1: '1 A St',
        city: 'Hull',
        postcode: 'HU1 1AA',
        country: 'UK',
      });
      const steps: [Record<string, unknown>, string][] = [
        [{ county: 'East Riding' }, '1 A St, Hull, East Riding, HU1 1AA, UK'],
        [{ addressLine1: '2 B St', postcode: 'HU2 2BB' }, '2 B St, Hull, East Riding, HU2 2BB, UK'],
        [{ addressLine2: 'Rear', country: 'England' }, '2 B St, Rear, Hull, East Riding, HU2 2BB, England'],
        [{ county: null, addressLine2: '' }, '2 B St, Hull, HU2 2BB, England'],
      ];
      for (const [body, fullAddress] of steps) {
        const response = await putUnit(sut, team, unit.id, body);
        expect(response.status).toBe(200);
        expect(response.body.data.fullAddress).toBe(fullAddress);
      }
    });

    it('clears optional parts with null or ""', async () => {
      const unit = await createUnit(sut, team, { addressLine2: 'Annex', county: 'Kent', area: 'Old Town' });
      const response = await putUnit(sut, team, unit.id, { addressLine2: null, county: '', area: '  ' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ addressLine2: null, county: null, area: null });
      expect(response.body.data.fullAddress).toBe(`${unit.addressLine1}, Leeds, LS1 4AP, United Kingdom`);
    });

    it('keeps both of two concurrent partial updates', async () => {
      const unit = await createUnit(sut, team, {
        addressLine1: '8 Kay St',
        city: 'Leeds',
        postcode: 'LS1 1AA',
        country: 'UK',
      });
      const [first, second] = await Promise.all([
        putUnit(sut, team, unit.id, { city: 'Wakefield' }),
        putUnit(sut, team, unit.id, { postcode: 'WF1 1AA' }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const read = (await getUnit(sut, team, unit.id)).body.data;
      expect(read).toMatchObject({
        city: 'Wakefield',
        postcode: 'WF1 1AA',
        fullAddress: '8 Kay St, Wakefield, WF1 1AA, UK',
      });
    });
  });
});
