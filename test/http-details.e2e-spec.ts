import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { generateApiKey } from '../apps/api/src/api-keys/index.js';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { unitInput } from './factories/units.js';

// What integrators' HTTP libraries expect (issue 22) and what a cache must not keep (issue 21, point 9):
// RFC 6750 challenges on 401, Location on 201, query-parameter errors in query words, no-store and nosniff on
// every /v1 answer — all declared in the OpenAPI document, which test-app checks every answer against.

const REALM = 'Bearer realm="Property Portfolio API"';

describe('HTTP details of the /v1 answers', () => {
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    // Webhook endpoints on this machine's receivers are allowed, so the answer that carries a secret is reachable.
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    team = await sut.createTeam('HTTP details team');
  });
  afterAll(() => sut.close());

  const expectNoStore = (response: { headers: Record<string, unknown> }): void => {
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  describe('401 carries WWW-Authenticate (RFC 6750)', () => {
    it('without a key: the bare challenge', async () => {
      const response = await sut.http().get('/v1/units');
      expectError(response, 401);
      expect(response.headers['www-authenticate']).toBe(REALM);
      expectNoStore(response);
    });

    it('with an unknown key: error="invalid_token"', async () => {
      const response = await sut
        .http()
        .get('/v1/units')
        .set(...bearer(generateApiKey()));
      expectError(response, 401);
      expect(response.headers['www-authenticate']).toBe(`${REALM}, error="invalid_token"`);
    });

    it('with a malformed header: error="invalid_request"', async () => {
      const response = await sut.http().get('/v1/units').set('Authorization', generateApiKey());
      expectError(response, 401);
      expect(response.headers['www-authenticate']).toBe(`${REALM}, error="invalid_request"`);
    });

    it('with a revoked key: error="invalid_token"', async () => {
      const revoked = await sut.createTeam('Revoked team');
      await sut.sql('UPDATE api_keys SET revoked_at = now() WHERE team_id = $1', [revoked.teamId]);
      const response = await sut
        .http()
        .post('/v1/units')
        .set(...bearer(revoked))
        .send(unitInput());
      expectError(response, 401);
      expect(response.headers['www-authenticate']).toBe(`${REALM}, error="invalid_token"`);
    });
  });

  describe('201 carries Location, the created record’s URL', () => {
    it('on a create, and the URL reads the record back', async () => {
      const created = await sut
        .http()
        .post('/v1/units')
        .set(...bearer(team))
        .send(unitInput())
        .expect(201);
      const id = (created.body as { data: { id: string } }).data.id;
      expect(created.headers.location).toBe(`/v1/units/${id}`);
      expectNoStore(created);
      const read = await sut
        .http()
        .get(created.headers.location)
        .set(...bearer(team))
        .expect(200);
      expect((read.body as { data: { id: string } }).data.id).toBe(id);
    });

    it('on a replayed create too (Idempotency-Key)', async () => {
      const key = `location-${Date.now()}`;
      const send = () =>
        sut
          .http()
          .post('/v1/landlords')
          .set(...bearer(team))
          .set('Idempotency-Key', key)
          .send({ name: 'Located Lettings' })
          .expect(201);
      const first = await send();
      const replay = await send();
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const id = (first.body as { data: { id: string } }).data.id;
      expect(first.headers.location).toBe(`/v1/landlords/${id}`);
      expect(replay.headers.location).toBe(`/v1/landlords/${id}`);
    });

    it('on a new webhook endpoint, whose answer (with its secret) is no-store', async () => {
      const created = await sut
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: 'http://127.0.0.1:9/hook' })
        .expect(201);
      const body = created.body as { data: { id: string; secret: string } };
      expect(body.data.secret).toMatch(/^whsec_/);
      expect(created.headers.location).toBe(`/v1/webhook-endpoints/${body.data.id}`);
      expectNoStore(created);
    });
  });

  it('names an unknown query parameter as a query parameter, on lists and on operations without a query', async () => {
    const list = await sut
      .http()
      .get('/v1/units?colour=red')
      .set(...bearer(team));
    expect(expectError(list, 400)).toBe('query parameter colour is not allowed');
    const one = await sut
      .http()
      .get('/v1/units/00000000-0000-4000-8000-000000000000?colour=red')
      .set(...bearer(team));
    expect(expectError(one, 400)).toBe('query parameter colour is not allowed');
    expectNoStore(one);
  });

  it('sends no-store and nosniff on every /v1 answer: success, 304, 404, 400, 413 and the document', async () => {
    const created = await sut
      .http()
      .post('/v1/tenants')
      .set(...bearer(team))
      .send({ firstName: 'Nora', lastName: 'Store' })
      .expect(201);
    expectNoStore(created);
    const location = created.headers.location;
    const read = await sut
      .http()
      .get(location)
      .set(...bearer(team))
      .expect(200);
    expectNoStore(read);
    // Conditional requests still work with no-store: the client revalidates its own copy.
    const notModified = await sut
      .http()
      .get(location)
      .set(...bearer(team))
      .set('If-None-Match', read.headers.etag)
      .expect(304);
    expectNoStore(notModified);
    expectNoStore(
      await sut
        .http()
        .get('/v1/nowhere')
        .set(...bearer(team))
        .expect(404),
    );
    expectNoStore(
      await sut
        .http()
        .post('/v1/tenants')
        .set(...bearer(team))
        .set('Content-Type', 'application/json')
        .send('{"firstName":')
        .expect(400),
    );
    expectNoStore(await sut.http().get('/v1/openapi.json').expect(200));
    // The probes, outside /v1, carry the same two (a cached "ready" would mislead a balancer).
    expectNoStore(await sut.http().get('/health').expect(200));
  });

  it('declares these headers in the OpenAPI document on every /v1 response', async () => {
    type Responses = Record<string, { headers?: Record<string, { required?: boolean }> }>;
    const document = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Responses }>>;
    };
    let creates = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith('/v1')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const where = `${method} ${path} ${status}`;
          expect({ where, headers: Object.keys(response.headers ?? {}) }).toEqual({
            where,
            headers: expect.arrayContaining(['Cache-Control', 'X-Content-Type-Options']),
          });
          if (status === '401') expect(response.headers?.['WWW-Authenticate']?.required).toBe(true);
          if (status === '201') {
            creates++;
            expect(response.headers?.Location?.required).toBe(true);
          }
        }
      }
    }
    // The five resources, webhook endpoints, a work order's notes and its attachments.
    expect(creates).toBe(8);
  });
});

describe('a /v1 path in another case of letters (Express serves /V1/units as /v1/units)', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 2 } });
    team = await sut.createTeam('Upper case team');
  });
  afterAll(() => sut.close());

  it('is counted and limited like any request of its key, and answered no-store', async () => {
    const get = () =>
      request(sut.app.getHttpServer())
        .get('/V1/contractors')
        .set(...bearer(team));
    const first = await get().expect(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect(first.headers['cache-control']).toBe('no-store');
    expect((await get().expect(200)).headers['x-ratelimit-remaining']).toBe('0');
    const limited = await get().expect(429);
    expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
  });
});
