import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { ApiKeysService, generateApiKey, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { createContractor, getContractor, listContractors, putContractor } from './factories/contractors.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { expectError } from './support/assertions.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Route {
  method: Method;
  /** As in the OpenAPI document; `{…}` parameters are filled with a UUID of no record. */
  path: string;
}

/** Every operation that needs a key: a new resource adds its lines here (the last test holds this to the docs). */
const ROUTES: Route[] = [
  { method: 'post', path: '/v1/contractors' },
  { method: 'get', path: '/v1/contractors' },
  { method: 'get', path: '/v1/contractors/{contractorId}' },
  { method: 'put', path: '/v1/contractors/{contractorId}' },
  { method: 'delete', path: '/v1/contractors/{contractorId}' },
  { method: 'post', path: '/v1/landlords' },
  { method: 'get', path: '/v1/landlords' },
  { method: 'get', path: '/v1/landlords/{landlordId}' },
  { method: 'put', path: '/v1/landlords/{landlordId}' },
  { method: 'delete', path: '/v1/landlords/{landlordId}' },
  { method: 'post', path: '/v1/units' },
  { method: 'get', path: '/v1/units' },
  { method: 'get', path: '/v1/units/{unitId}' },
  { method: 'put', path: '/v1/units/{unitId}' },
  { method: 'delete', path: '/v1/units/{unitId}' },
  { method: 'post', path: '/v1/tenants' },
  { method: 'get', path: '/v1/tenants' },
  { method: 'get', path: '/v1/tenants/{tenantId}' },
  { method: 'put', path: '/v1/tenants/{tenantId}' },
  { method: 'delete', path: '/v1/tenants/{tenantId}' },
  { method: 'post', path: '/v1/work-orders' },
  { method: 'get', path: '/v1/work-orders' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}' },
  { method: 'put', path: '/v1/work-orders/{workOrderId}' },
  { method: 'delete', path: '/v1/work-orders/{workOrderId}' },
  { method: 'post', path: '/v1/work-orders/{workOrderId}/notes' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/notes' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/notes/{noteId}' },
  { method: 'put', path: '/v1/work-orders/{workOrderId}/notes/{noteId}' },
  { method: 'delete', path: '/v1/work-orders/{workOrderId}/notes/{noteId}' },
  { method: 'post', path: '/v1/work-orders/{workOrderId}/attachments' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/attachments' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/attachments/{attachmentId}' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/attachments/{attachmentId}/content' },
  { method: 'delete', path: '/v1/work-orders/{workOrderId}/attachments/{attachmentId}' },
  { method: 'get', path: '/v1/contractors/{contractorId}/history' },
  { method: 'get', path: '/v1/landlords/{landlordId}/history' },
  { method: 'get', path: '/v1/units/{unitId}/history' },
  { method: 'get', path: '/v1/tenants/{tenantId}/history' },
  { method: 'get', path: '/v1/work-orders/{workOrderId}/history' },
  { method: 'get', path: '/v1/events' },
  { method: 'post', path: '/v1/webhook-endpoints' },
  { method: 'get', path: '/v1/webhook-endpoints' },
  { method: 'get', path: '/v1/webhook-endpoints/{endpointId}' },
  { method: 'put', path: '/v1/webhook-endpoints/{endpointId}' },
  { method: 'delete', path: '/v1/webhook-endpoints/{endpointId}' },
  { method: 'post', path: '/v1/webhook-endpoints/{endpointId}/rotate-secret' },
  { method: 'post', path: '/v1/webhook-endpoints/{endpointId}/test' },
  { method: 'get', path: '/v1/webhook-endpoints/{endpointId}/deliveries' },
  { method: 'post', path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry' },
  { method: 'post', path: '/v1/imports' },
  { method: 'get', path: '/v1/imports' },
  { method: 'get', path: '/v1/imports/template' },
  { method: 'get', path: '/v1/imports/{importId}' },
  { method: 'get', path: '/v1/imports/{importId}/errors' },
  { method: 'post', path: '/v1/imports/{importId}/cancel' },
  { method: 'post', path: '/v1/sandbox/reset' },
];

interface Answer {
  route: string;
  status: number;
  body: unknown;
}

const label = (route: Route): string => `${route.method.toUpperCase()} ${route.path}`;
const hasBody = (route: Route): boolean => ['post', 'put', 'patch'].includes(route.method);
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('authentication', () => {
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Auth team');
  });
  afterAll(() => sut.close());

  /** Sends the route with a body that would fail validation and an id of no record: only auth can answer first. */
  function send(route: Route, authorization: string | undefined): Promise<Response> {
    const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
    let request = sut.http()[route.method](path);
    if (authorization !== undefined) request = request.set('Authorization', authorization);
    return hasBody(route) ? request.send({ notAField: true }) : request;
  }

  /** Status and body keys per route, so one failure shows every route's answer. */
  async function answers(authorization: string | undefined): Promise<Answer[]> {
    const results: Answer[] = [];
    for (const route of ROUTES) {
      const response = await send(route, authorization);
      results.push({ route: label(route), status: response.status, body: response.body as unknown });
    }
    return results;
  }

  function expectAll401(results: Answer[]): void {
    expect(results.map(({ route, status, body }) => ({ route, status, keys: Object.keys(body as object) }))).toEqual(
      ROUTES.map((route) => ({ route: label(route), status: 401, keys: ['error'] })),
    );
    for (const { body } of results) expect(typeof (body as { error: unknown }).error).toBe('string');
  }

  const refused: Array<[string, () => string | undefined]> = [
    ['no Authorization header', () => undefined],
    ['a Basic credential', () => 'Basic dXNlcjpwYXNzd29yZA=='],
    ['"Bearer" with nothing', () => 'Bearer'],
    ['"Bearer " with only spaces', () => 'Bearer    '],
    ['a well-formed but unknown key', () => `Bearer ${generateApiKey()}`],
    ['a key that is too short', () => 'Bearer ppk_abc123'],
    ['a key with characters outside base62', () => `Bearer ppk_${'a'.repeat(36)}-_`],
    ['a key without the ppk_ prefix', () => `Bearer ${'a'.repeat(40)}`],
    ['a valid key without the Bearer scheme', () => team.apiKey],
    ['a valid key followed by more text', () => `Bearer ${team.apiKey} extra`],
    [
      'a valid key with one character changed',
      () => `Bearer ${team.apiKey.slice(0, -1)}${team.apiKey.endsWith('a') ? 'b' : 'a'}`,
    ],
  ];

  it.each(refused)('answers 401 {error} on every route for %s', async (_, authorization) => {
    expectAll401(await answers(authorization()));
  });

  it.each(ROUTES.map((route) => [label(route), route] as const))(
    '%s with a valid key gets past auth',
    async (_, route) => {
      const response = await send(route, `Bearer ${team.apiKey}`);
      // The request is built to fail later on purpose: a bad body (400), a missing record (404), or a plain list.
      // An upload takes multipart/form-data only, an import CSV or NDJSON: the JSON body is refused (415) before
      // anything else (its body is received before the write's transaction opens).
      const upload = route.method === 'post' && (route.path.endsWith('/attachments') || route.path === '/v1/imports');
      // The import template requires its `resource`: without it, 400.
      const needsQuery = route.path === '/v1/imports/template';
      // The sandbox's reset takes test keys only: a live key is refused (403) before its body is read.
      const testKeysOnly = route.path === '/v1/sandbox/reset';
      const expected = upload
        ? 415
        : testKeysOnly
          ? 403
          : hasBody(route) || needsQuery
            ? 400
            : route.path.includes('{')
              ? 404
              : 200;
      expect(response.status).toBe(expected);
    },
  );

  const listWith = (key: { apiKey: string }) =>
    sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(key));

  it('refuses a revoked key on the very next request, on every route', async () => {
    const key = await sut.app.get(ApiKeysService).createKey(team.teamId, 'to revoke');
    expect((await listWith(key)).status).toBe(200);

    await sut.app.get(ApiKeysService).revoke(key.apiKeyId);

    expectError(await listWith(key), 401);
    expectAll401(await answers(`Bearer ${key.apiKey}`));
    // The team's other key is untouched.
    expect((await listWith(team)).status).toBe(200);
  });

  it('refuses a key revoked through one instance on the next request to another', async () => {
    const other = await createTestApp({ databaseUrl: sut.databaseUrl });
    try {
      const key = await sut.app.get(ApiKeysService).createKey(team.teamId, 'shared');
      const onOther = () =>
        other
          .http()
          .get('/v1/contractors')
          .set(...bearer(key));
      expect((await onOther()).status).toBe(200);
      await sut.app.get(ApiKeysService).revoke(key.apiKeyId);
      expectError(await onOther(), 401);
    } finally {
      await other.close();
    }
  });

  it('checks the key before validating the body, the path id or the record', async () => {
    expectError(await sut.http().post('/v1/contractors').send({ companyName: '' }), 401);
    expectError(await sut.http().get('/v1/contractors').query({ pageSize: 500, bogus: 1 }), 401);
    expectError(await sut.http().get('/v1/contractors/not-a-uuid'), 401);
    expectError(await sut.http().put('/v1/contractors/not-a-uuid').send({ companyName: '' }), 401);
    const contractor = await createContractor(sut, team);
    expectError(
      await sut.http().get(`/v1/contractors/${contractor.id}`).set('Authorization', `Bearer ${generateApiKey()}`),
      401,
    );
  });

  it("checks the key, then a read-only key's write, before the Content-Type or charset of the body (415)", async () => {
    const post = (authorization: string | undefined, contentType: string) => {
      const request = sut.http().post('/v1/landlords').set('Content-Type', contentType);
      return (authorization === undefined ? request : request.set('Authorization', authorization)).send('name=x');
    };
    const latin1 = 'application/json; charset=latin1';
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', latin1]) {
      expectError(await post(undefined, contentType), 401);
      expectError(await post(`Bearer ${generateApiKey()}`, contentType), 401);
    }
    const readOnly = await sut.app.get(ApiKeysService).createKey(team.teamId, 'Reader', { access: 'read_only' });
    expect(expectError(await post(`Bearer ${readOnly.apiKey}`, 'text/plain'), 403)).toBe('This API key is read-only');
    expect(expectError(await post(`Bearer ${team.apiKey}`, 'text/plain'), 415)).toBe(
      'Content-Type must be application/json',
    );
    expect(expectError(await post(`Bearer ${team.apiKey}`, latin1), 415)).toBe(
      'Unsupported body encoding: send UTF-8 JSON',
    );
  });

  it('changes nothing when a valid body comes without a valid key', async () => {
    const before = await sut.sql<{ count: number }>('SELECT count(*)::int AS count FROM contractors');
    const response = await sut
      .http()
      .post('/v1/contractors')
      .set('Authorization', `Bearer ${generateApiKey()}`)
      .send({ companyName: 'Unauthorised Ltd', contactName: 'Nobody' });
    expectError(response, 401);
    expect(await sut.sql<{ count: number }>('SELECT count(*)::int AS count FROM contractors')).toEqual(before);
  });

  it('issues ppk_ keys of at least 32 base62 characters and stores only their SHA-256', async () => {
    const created = await sut.createTeam('Hash check');
    expect(created.apiKey).toMatch(/^ppk_[0-9A-Za-z]{32,}$/);

    const [row] = await sut.sql('SELECT * FROM api_keys WHERE id = $1', [created.apiKeyId]);
    expect(row.team_id).toBe(created.teamId);
    expect(row.key_hash).toBe(sha256(created.apiKey));
    const secret = created.apiKey.slice('ppk_'.length);
    const stored = JSON.stringify(await sut.sql('SELECT * FROM api_keys WHERE team_id = $1', [created.teamId]));
    const teamRow = JSON.stringify(await sut.sql('SELECT * FROM teams WHERE id = $1', [created.teamId]));
    expect({ keyRow: stored.includes(secret), teamRow: teamRow.includes(secret) }).toEqual({
      keyRow: false,
      teamRow: false,
    });
  });

  describe('team isolation', () => {
    it('shows a second team none of the first team’s contractors', async () => {
      const owner = await sut.createTeam('Owner');
      const other = await sut.createTeam('Other');
      const theirs = await createContractor(sut, owner, { companyName: 'Isolated Plumbing Ltd', contactName: 'Iris' });
      const own = await createContractor(sut, other, { companyName: 'Other Electrics', contactName: 'Olly' });

      expect(expectError(await getContractor(sut, other, theirs.id), 404)).toBe('Contractor not found');
      const put = await putContractor(sut, other, theirs.id, { companyName: 'Hijacked', notes: 'mine now' });
      expect(expectError(put, 404)).toBe('Contractor not found');
      expect((await getContractor(sut, owner, theirs.id)).body.data).toEqual(theirs);

      const list = await listContractors(sut, other);
      expect({ ids: list.body.data.map((c: { id: string }) => c.id), total: list.body.pagination.total }).toEqual({
        ids: [own.id],
        total: 1,
      });
      const search = await listContractors(sut, other, { search: 'Isolated' });
      expect({ data: search.body.data, total: search.body.pagination.total }).toEqual({ data: [], total: 0 });
      const ownerSearch = await listContractors(sut, owner, { search: 'Isolated' });
      expect(ownerSearch.body.data.map((c: { id: string }) => c.id)).toEqual([theirs.id]);
    });
  });

  it('covers every authenticated operation of the OpenAPI document', async () => {
    const document = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const secured = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => (operation.security ?? []).length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(secured.length).toBeGreaterThan(0);
    expect(ROUTES.map(label).sort()).toEqual(secured.sort());
  });
});
