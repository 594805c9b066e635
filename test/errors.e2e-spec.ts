import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import {
  countContractors,
  createContractor,
  getContractor,
  listContractors,
  postContractor,
} from './factories/contractors.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { expectError, UUID } from './support/assertions.js';

const MAX_BODY_BYTES = 1_048_576;

/** A valid create body padded with trailing whitespace (still valid JSON) to exactly `bytes` bytes. */
function contractorBodyOfSize(bytes: number): string {
  const json = JSON.stringify({ companyName: 'Padded Ltd', contactName: 'Pat' });
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
}

describe('error responses', () => {
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Errors team');
  });
  afterAll(() => sut.close());

  const postRaw = (body: string, contentType = 'application/json') =>
    sut
      .http()
      .post('/v1/contractors')
      .set(...bearer(team))
      .set('Content-Type', contentType)
      .send(body);

  describe('request bodies', () => {
    it('answers malformed JSON with 400 and creates nothing', async () => {
      const before = await countContractors(sut, team.teamId);
      for (const body of ['{"companyName": "A",', "{companyName: 'A'}", '{"a":1}}', 'nul']) {
        expect(expectError(await postRaw(body), 400)).toMatch(/JSON/);
      }
      const contractor = await createContractor(sut, team);
      const put = await sut
        .http()
        .put(`/v1/contractors/${contractor.id}`)
        .set(...bearer(team))
        .set('Content-Type', 'application/json')
        .send('{"notes": ');
      expectError(put, 400);
      expect(await countContractors(sut, team.teamId)).toBe(before + 1);
    });

    it.each([
      ['an empty array', '[]'],
      ['an array of objects', '[{"companyName":"A","contactName":"B"}]'],
      ['a string', '"Acme"'],
      ['a number', '42'],
      ['null', 'null'],
      ['true', 'true'],
    ])('answers a body that is %s with 400', async (_, body) => {
      const before = await countContractors(sut, team.teamId);
      expectError(await postRaw(body), 400);
      expect(await countContractors(sut, team.teamId)).toBe(before);
    });

    it('reads an absent body as {} and names the missing fields', async () => {
      const response = await sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(team));
      expect(expectError(response, 400)).toMatch(/companyName/);
    });

    it(`accepts a body of exactly ${MAX_BODY_BYTES} bytes`, async () => {
      const body = contractorBodyOfSize(MAX_BODY_BYTES);
      expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
      const response = await postRaw(body);
      expect(response.status).toBe(201);
      expect(response.body.data.companyName).toBe('Padded Ltd');
    });

    it(`answers a body of ${MAX_BODY_BYTES + 1} bytes with 413 and creates nothing`, async () => {
      const before = await countContractors(sut, team.teamId);
      expect(expectError(await postRaw(contractorBodyOfSize(MAX_BODY_BYTES + 1)), 413)).toMatch(/1048576|1 MiB/);
      expect(await countContractors(sut, team.teamId)).toBe(before);
    });

    it('counts the limit in bytes, not characters', async () => {
      // 400,000 three-byte characters: well under the limit in characters, over it in UTF-8 bytes.
      const body = JSON.stringify({ companyName: 'A', contactName: 'B', notes: '€'.repeat(400_000) });
      expect(body.length).toBeLessThan(MAX_BODY_BYTES);
      expectError(await postRaw(body), 413);
    });

    it('answers an over-large PUT with 413 and leaves the record as it was', async () => {
      const contractor = await createContractor(sut, team);
      const response = await sut
        .http()
        .put(`/v1/contractors/${contractor.id}`)
        .set(...bearer(team))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ notes: 'x'.repeat(MAX_BODY_BYTES) }));
      expectError(response, 413);
      const after = await getContractor(sut, team, contractor.id);
      expect(after.body.data).toEqual(contractor);
    });

    it.each([
      ['text/plain', '{"companyName":"A","contactName":"B"}'],
      ['application/x-www-form-urlencoded', 'companyName=A&contactName=B'],
      ['application/xml', '<contractor><companyName>A</companyName></contractor>'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nA\r\n--x--',
      ],
    ])('answers a body sent as %s with 415 and creates nothing', async (contentType, body) => {
      const before = await countContractors(sut, team.teamId);
      expectError(await postRaw(body, contentType), 415);
      expect(await countContractors(sut, team.teamId)).toBe(before);
    });

    it('accepts application/json with a charset parameter', async () => {
      const response = await postRaw(
        '{"companyName":"Charset Ltd","contactName":"C"}',
        'application/json; charset=utf-8',
      );
      expect(response.status).toBe(201);
    });
  });

  describe('routes and methods', () => {
    it.each([
      ['get', '/v1/nothing-here'],
      ['post', '/v1/nothing-here'],
      ['get', '/nothing-here'],
      // `GET /v1` (and `/`, redirected to it) answers the API's root: test/discovery.e2e-spec.ts.
      ['post', '/v1'],
      ['get', '/v2/contractors'],
      ['get', '/contractors'],
      ['get', '/v1/contractors/{id}/extra'],
    ] as const)('answers %s %s with 404 {error}, with or without a key', async (method, template) => {
      const path = template.replace('{id}', randomUUID());
      expectError(await sut.http()[method](path), 404);
      expectError(
        await sut
          .http()
          [method](path)
          .set(...bearer(team)),
        404,
      );
    });

    it.each([
      ['patch', '/v1/contractors/{id}'],
      ['delete', '/v1/contractors'],
      ['patch', '/v1/contractors'],
      ['put', '/v1/contractors'],
      ['post', '/v1/contractors/{id}'],
    ] as const)('answers %s %s, which the path does not offer, with 404 and changes nothing', async (method, path) => {
      const contractor = await createContractor(sut, team);
      const response = await sut
        .http()
        [method](path.replace('{id}', contractor.id))
        .set(...bearer(team))
        .send({ companyName: 'Changed' });
      expectError(response, 404);
      const after = await getContractor(sut, team, contractor.id);
      expect(after.body.data).toEqual(contractor);
    });
  });

  describe('an operation that declares no query parameters', () => {
    it.each([
      ['GET one', 'get', false],
      ['PUT', 'put', true],
      ['DELETE', 'delete', true],
    ] as const)('refuses any on %s with 400 naming each, and changes nothing', async (_, method, writes) => {
      const contractor = await createContractor(sut, team, { companyName: 'Query Ltd', contactName: 'Q' });
      const path = `/v1/contractors/${contractor.id}?colour=red&size=2`;
      let call = sut
        .http()
        [method](path)
        .set(...bearer(team));
      if (writes && method === 'put') call = call.send({ companyName: 'Changed Ltd' });
      const response = await call;
      expect(expectError(response, 400)).toBe(
        'query parameter colour is not allowed; query parameter size is not allowed',
      );
      const after = await getContractor(sut, team, contractor.id);
      expect(after.body.data).toEqual(contractor);
    });

    it('refuses any on POST, creating nothing; the key is still checked first', async () => {
      const before = await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM contractors');
      const refused = await sut
        .http()
        .post('/v1/contractors?dryRun=true')
        .set(...bearer(team))
        .send({ companyName: 'Posted Ltd', contactName: 'P' });
      expect(expectError(refused, 400)).toBe('query parameter dryRun is not allowed');
      expect(await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM contractors')).toEqual(before);
      expectError(await sut.http().get(`/v1/contractors/${randomUUID()}?colour=red`), 401);
      // Public routes are left alone, even when called with a key.
      await sut
        .http()
        .get('/health?probe=1')
        .set(...bearer(team))
        .expect(200);
      // A lone `?` is no parameter.
      await sut
        .http()
        .get('/v1/contractors?')
        .set(...bearer(team))
        .expect(200);
    });
  });

  it.each([
    [
      'a path id that is not a UUID',
      () =>
        sut
          .http()
          .get('/v1/contractors/12345')
          .set(...bearer(team)),
      400,
    ],
    [
      'an unknown query parameter',
      () =>
        sut
          .http()
          .get('/v1/contractors?colour=red')
          .set(...bearer(team)),
      400,
    ],
    [
      'an unknown body property',
      () =>
        sut
          .http()
          .post('/v1/contractors')
          .set(...bearer(team))
          .send({ id: randomUUID() }),
      400,
    ],
    [
      'a record that does not exist',
      () =>
        sut
          .http()
          .get(`/v1/contractors/${randomUUID()}`)
          .set(...bearer(team)),
      404,
    ],
    ['a missing key', () => sut.http().get('/v1/contractors'), 401],
  ])('answers %s with exactly {error} as JSON', async (_, send, status) => {
    const response = await send();
    expectError(response, status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  describe('X-Request-Id', () => {
    it('is returned on successes and failures', async () => {
      const ok = await sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(team));
      const failed = await sut.http().get('/v1/nothing-here');
      const unauthorised = await sut.http().get('/v1/contractors');
      for (const response of [ok, failed, unauthorised]) expect(response.headers['x-request-id']).toMatch(UUID);
      expect(ok.headers['x-request-id']).not.toBe(failed.headers['x-request-id']);
    });

    it('echoes a safe id sent by the client', async () => {
      const response = await sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(team))
        .set('X-Request-Id', 'trace-42.a_b:c');
      expect(response.headers['x-request-id']).toBe('trace-42.a_b:c');
    });

    it.each([
      ['one with spaces', 'two words'],
      ['one with markup', '<script>'],
      ['one over 128 characters', 'a'.repeat(129)],
    ])('replaces %s with its own', async (_, incoming) => {
      const response = await sut.http().get('/health').set('X-Request-Id', incoming);
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });
});

describe('an unexpected server fault', () => {
  let sut: TestApp;
  let team: CreatedKey;
  let contractorId: string;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Broken team');
    contractorId = (await createContractor(sut, team)).id;
    // A real fault, not a mock: the query the repository builds now names a column that does not exist.
    await sut.sql('ALTER TABLE contractors RENAME COLUMN notes TO notes_gone');
  });
  afterAll(() => sut.close());

  it.each([
    ['listing', () => listContractors(sut, team)],
    ['reading one', () => getContractor(sut, team, contractorId)],
    ['creating', () => postContractor(sut, team, { companyName: 'A', contactName: 'B' })],
  ])('answers %s with a bare 500 and no stack trace or SQL', async (_, send) => {
    const response = await send();
    expect(response.status).toBe(500);
    expect(response.text).toBe('{"error":"Internal server error"}');
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('still answers the readiness probe, which only needs the database to answer', async () => {
    expect((await sut.http().get('/health/ready')).status).toBe(200);
  });
});
