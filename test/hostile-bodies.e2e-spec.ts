import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_BODY_DEPTH, MAX_BODY_ENTRIES } from '@app/common';
import {
  countContractors,
  createContractor,
  getContractor,
  postContractor,
  putContractor,
} from './factories/contractors.js';
import { countLandlords, createLandlord, getLandlord } from './factories/landlords.js';
import { expectError, expectFieldError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// Bodies an outside attacker sent (the reliability issue): each used to be a 500, a stored half-record, or a
// silently accepted property. The reliability suite (`npm run test:reliability`) fuzzes the same ground.

const DEPTH_RULE = `Request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels`;
const ENTRIES_RULE = `Request body holds more than ${MAX_BODY_ENTRIES} properties and array items in total`;

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nestedObjects = (levels: number): string => '{"a":'.repeat(levels - 1) + '{"a":1}' + '}'.repeat(levels - 1);
/** A landlord body padded with `count` unknown keys of 20 bytes each: 50,000 of them make about 1 MB. */
const manyKeysBody = (count: number): string =>
  JSON.stringify({
    name: 'Many keys',
    ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i).padStart(5, '0')}`, 'x'.repeat(8)])),
  });
/** `[[…]]`, `levels` arrays deep. */
const nestedArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('hostile request bodies', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Hostile bodies team');
  });
  afterAll(() => sut.close());

  const send = (method: 'post' | 'put', path: string, body: string) =>
    sut
      .http()
      [method](path)
      .set(...bearer(team))
      .set('Content-Type', 'application/json')
      .send(body);

  describe('text that is not text', () => {
    const sendBytes = (bytes: Buffer, contentType = 'application/json') =>
      sut
        .http()
        .post('/v1/landlords')
        .set(...bearer(team))
        .set('Content-Type', contentType)
        .serialize((body: unknown) => body as string)
        .send(bytes);

    it('refuses bytes that are not UTF-8 with 400, instead of storing U+FFFD in their place', async () => {
      const before = await countLandlords(sut, team.teamId);
      const bytes = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
      expect(expectError(await sendBytes(bytes), 400)).toMatch(/^Request body is not valid text in its charset/);
      // A UTF-16 body with half a character at its end, the same.
      const utf16 = Buffer.concat([Buffer.from('{"name":"ab"}', 'utf16le'), Buffer.from([0x3d])]);
      expect(expectError(await sendBytes(utf16, 'application/json; charset=utf-16le'), 400)).toMatch(/not valid text/);
      expect(await countLandlords(sut, team.teamId)).toBe(before);
    });

    it('refuses a string holding an unpaired surrogate, naming the field, and keeps a paired one', async () => {
      const before = await countLandlords(sut, team.teamId);
      const lone = await send('post', '/v1/landlords', '{"name":"a\\ud800b"}');
      expect(expectFieldError(lone, 'name')).toBe('name must be valid Unicode text (it holds an unpaired surrogate)');
      const nested = await send(
        'post',
        '/v1/contractors',
        '{"companyName":"Q","contactName":"Q","trades":["\\udc00"]}',
      );
      expect(expectError(nested, 400)).toMatch(/^trades\.0 must be valid Unicode text/);
      expect(await countLandlords(sut, team.teamId)).toBe(before);
      const paired = await send('post', '/v1/landlords', '{"name":"Emoji \\ud83c\\udfe0 Lettings"}');
      expect(paired.status).toBe(201);
      expect(paired.body.data.name).toBe('Emoji \u{1F3E0} Lettings');
    });
  });

  describe('nesting depth', () => {
    it('refuses a 12 KB body nested 2,000 objects deep with 400 naming the rule, and creates nothing', async () => {
      const before = await countContractors(sut, team.teamId);
      const body = `{"companyName":"Q","contactName":"Q","notes":${nestedObjects(2_000)}}`;
      expect(body.length).toBeGreaterThan(12_000);
      expect(expectError(await send('post', '/v1/contractors', body), 400)).toBe(DEPTH_RULE);
      expect(await countContractors(sut, team.teamId)).toBe(before);
    });

    it('refuses arrays nested 5,000 deep the same way, on POST and on PUT', async () => {
      const contractor = await createContractor(sut, team);
      const body = `{"companyName":"Q","contactName":"Q","trades":${nestedArrays(5_000)}}`;
      expect(expectError(await send('post', '/v1/contractors', body), 400)).toBe(DEPTH_RULE);
      expect(expectError(await send('put', `/v1/contractors/${contractor.id}`, body), 400)).toBe(DEPTH_RULE);
      expect((await getContractor(sut, team, contractor.id)).body.data).toEqual(contractor);
    });

    it(`lets ${MAX_BODY_DEPTH} levels through to validation and refuses ${MAX_BODY_DEPTH + 1}`, async () => {
      // The body itself is the first level.
      const atLimit = `{"companyName":"Q","contactName":"Q","notes":${nestedObjects(MAX_BODY_DEPTH - 1)}}`;
      expectFieldError(await send('post', '/v1/contractors', atLimit), 'notes');
      const overLimit = `{"companyName":"Q","contactName":"Q","notes":${nestedObjects(MAX_BODY_DEPTH)}}`;
      expect(expectError(await send('post', '/v1/contractors', overLimit), 400)).toBe(DEPTH_RULE);
    });

    it('checks a UTF-16 body on its decoded text: a valid one is created, a deep one refused', async () => {
      const sendUtf16 = (json: string) =>
        sut
          .http()
          .post('/v1/contractors')
          .set(...bearer(team))
          .set('Content-Type', 'application/json; charset=utf-16le')
          .serialize((bytes: unknown) => bytes as string)
          .send(Buffer.from(json, 'utf16le'));
      // U+227B is the bytes 7B 22, `{"` when read a byte at a time: 80 of them would look 40 levels deep.
      const name = '≻'.repeat(80);
      const created = await sendUtf16(JSON.stringify({ companyName: name, contactName: 'Q' }));
      expect({ status: created.status, name: created.body.data?.companyName }).toEqual({ status: 201, name });
      const deep = await sendUtf16(`{"companyName":"Q","contactName":"Q","notes":${nestedArrays(MAX_BODY_DEPTH)}}`);
      expect(expectError(deep, 400)).toBe(DEPTH_RULE);
    });

    it('does not count brackets and quotes inside strings', async () => {
      const notes = `${'['.repeat(3_000)}\\"{{{${'{'.repeat(3_000)}`;
      const response = await send(
        'post',
        '/v1/contractors',
        `{"companyName":"Q","contactName":"Q","notes":"${notes}"}`,
      );
      expect(response.status).toBe(201);
      expect(response.body.data.notes).toBe(JSON.parse(`"${notes}"`));
    });
  });

  describe('number of entries', () => {
    it('refuses a 1 MiB body of 50,000 keys with 400 naming the rule, before validating any key', async () => {
      const body = manyKeysBody(50_000);
      expect(Buffer.byteLength(body)).toBeGreaterThan(1_000_000);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1_048_576);
      const before = await countLandlords(sut, team.teamId);
      expect(expectError(await send('post', '/v1/landlords', body), 400)).toBe(ENTRIES_RULE);
      expect(await countLandlords(sut, team.teamId)).toBe(before);
    });

    it(`counts keys and array items together: ${MAX_BODY_ENTRIES} pass to validation, one more is refused`, async () => {
      // companyName, contactName and trades are 3 entries; the rest are trades' items.
      const body = (items: number) =>
        JSON.stringify({ companyName: 'Q', contactName: 'Q', trades: Array<string>(items).fill('t') });
      expectFieldError(await send('post', '/v1/contractors', body(MAX_BODY_ENTRIES - 3)), 'trades');
      expect(expectError(await send('post', '/v1/contractors', body(MAX_BODY_ENTRIES - 2)), 400)).toBe(ENTRIES_RULE);
    });
  });

  describe('list items that are not objects', () => {
    it.each(['insurance', 'certifications'])(
      'refuses %s: [[]] with 400 naming the item, and stores nothing',
      async (field) => {
        const before = await countContractors(sut, team.teamId);
        const response = await postContractor(sut, team, { companyName: 'Q', contactName: 'Q', [field]: [[]] });
        expect(expectFieldError(response, `${field}.0`)).toBe(`${field}.0 must be an object`);
        expect(await countContractors(sut, team.teamId)).toBe(before);
      },
    );

    it('names the first item that is not an object, whatever it is, on PUT too', async () => {
      const contractor = await createContractor(sut, team);
      const valid = { type: 'Public liability', amount: 1_000 };
      for (const item of [[], null, 5, 'cover', true]) {
        const response = await putContractor(sut, team, contractor.id, { insurance: [valid, item] });
        expect(expectError(response, 400)).toBe('insurance.1 must be an object');
      }
      expect((await getContractor(sut, team, contractor.id)).body.data).toEqual(contractor);
    });
  });

  describe('reserved property names', () => {
    // `toString`, `valueOf` and `hasOwnProperty` name inherited functions, which class-transformer skipped.
    it.each(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'])(
      'refuses %s in a POST body like any unknown property, and creates nothing',
      async (name) => {
        const before = await countLandlords(sut, team.teamId);
        const response = await send('post', '/v1/landlords', `{"name":"pp","${name}":{"status":"inactive"}}`);
        expect(expectError(response, 400)).toBe(`property ${name} should not exist`);
        expect(await countLandlords(sut, team.teamId)).toBe(before);
      },
    );

    it('refuses a PUT whose only property is __proto__, and updatedAt does not move', async () => {
      const landlord = await createLandlord(sut, team);
      const response = await send('put', `/v1/landlords/${landlord.id}`, '{"__proto__":{"name":"changed"}}');
      expect(expectError(response, 400)).toBe('property __proto__ should not exist');
      expect((await getLandlord(sut, team, landlord.id)).body.data).toEqual(landlord);
    });

    it('names a reserved property inside a list item by its path', async () => {
      const body = '{"companyName":"Q","contactName":"Q","certifications":[{"type":"A","constructor":1}]}';
      expect(expectError(await send('post', '/v1/contractors', body), 400)).toBe(
        'property certifications.0.constructor should not exist',
      );
    });

    it.each(['__proto__', 'constructor', 'prototype', 'toString'])('refuses %s as a query parameter', async (name) => {
      const response = await sut
        .http()
        .get(`/v1/landlords?pageSize=5&${name}=1`)
        .set(...bearer(team));
      expect(expectError(response, 400)).toBe(`query parameter ${name} is not allowed`);
    });
  });
});
