import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ApiKeysService, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { SAMPLE_COUNTS } from '../apps/api/src/sandbox/index.js';
import { expectError, UUID } from './support/assertions.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// CONTRACT "Test mode (sandbox)": test keys reach only the team's sandbox (its own teamId), every answer to one
// carries X-Test-Mode: true, and POST /v1/sandbox/reset empties the sandbox and can fill it with sample data.
// The generated sweep over every route (live and test keys see nothing of each other): test/reliability.

interface Page<T> {
  data: T[];
  pagination: { total: number };
}
interface Reset {
  teamId: string;
  sampleData: boolean;
  resetAt: string;
  records: Record<string, number>;
}

const UUID_ZERO = '00000000-0000-4000-8000-000000000000';
const UNIT = { addressLine1: '1 Test Street', city: 'Bristol', postcode: 'BS1 1AA', country: 'United Kingdom' };

describe('test mode', () => {
  let sut: TestApp;
  let live: CreatedKey;
  let test: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp();
    live = await sut.createTeam('Test mode team');
    test = await sut.app.get(ApiKeysService).createKey(live.teamId, 'integration tests', { test: true });
  });
  afterAll(() => sut.close());

  const as = (key: CreatedKey) => ({
    get: (path: string) =>
      sut
        .http()
        .get(path)
        .set(...bearer(key)),
    post: (path: string, body?: object) =>
      sut
        .http()
        .post(path)
        .set(...bearer(key))
        .send(body),
  });

  it('makes a ppk_test_ key for the team’s sandbox, a team of its own created on first use', async () => {
    expect(test.apiKey).toMatch(/^ppk_test_[0-9A-Za-z]{32,}$/);
    expect(test.teamId).toBe(live.teamId);
    expect(test.sandboxTeamId).toMatch(UUID);
    expect(test.sandboxTeamId).not.toBe(live.teamId);
    const again = await sut.app.get(ApiKeysService).createKey(live.teamId, null, { test: true });
    expect(again.sandboxTeamId).toBe(test.sandboxTeamId);
    const [row] = await sut.sql<{ live_team_id: string }>('SELECT live_team_id FROM teams WHERE id = $1', [
      test.sandboxTeamId,
    ]);
    expect(row.live_team_id).toBe(live.teamId);
  });

  it('marks every answer to a test key with X-Test-Mode: true, refusals included, and no answer to a live key', async () => {
    const answers = await Promise.all([
      as(test).get('/v1/units'),
      as(test).get('/v1/units/00000000-0000-4000-8000-000000000000'),
      as(test).get('/v1/no-such-route'),
      as(test).post('/v1/units', { city: 'Bristol' }),
      sut
        .http()
        .get('/v1/units')
        .set('Authorization', `Bearer ppk_test_${'x'.repeat(40)}`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 404, 400, 401]);
    for (const answer of answers) expect(answer.headers['x-test-mode']).toBe('true');
    const liveAnswer = await as(live).get('/v1/units');
    expect(liveAnswer.status).toBe(200);
    expect(liveAnswer.headers['x-test-mode']).toBeUndefined();
  });

  // The routes that need no key answer a test key's request in test mode too (CONTRACT: "Every response to a test
  // key carries X-Test-Mode: true"). Those under /v1 are checked against the document; plain supertest for the
  // others (the bare host, the dashboard, the probes and Swagger UI are outside it).
  const PUBLIC_ROUTES: Array<[string, number]> = [
    ['/v1', 200],
    ['/v1/openapi.json', 200],
    ['/v1/openapi.yaml', 200],
    ['/docs', 200],
    ['/docs/', 301],
    ['/health', 200],
    ['/health/ready', 200],
    [`/v1/attachment-downloads/${UUID_ZERO}/${UUID_ZERO}?expires=1&signature=forged`, 403],
    ['/', 302],
    ['/dashboard/sign-in', 200],
    ['/no-such-path', 404],
    ['/v1/no-such-route', 404],
  ];

  it.each(PUBLIC_ROUTES)(
    'marks the answer to GET %s (%i, no key needed) when a test key is sent',
    async (path, status) => {
      const agent = () => (path.startsWith('/v1/') || path === '/v1' ? sut.http() : request(sut.app.getHttpServer()));
      const answer = await agent()
        .get(path)
        .set(...bearer(test));
      expect({ status: answer.status, testMode: answer.headers['x-test-mode'] }).toEqual({ status, testMode: 'true' });
      const liveAnswer = await agent()
        .get(path)
        .set(...bearer(live));
      expect({ status: liveAnswer.status, testMode: liveAnswer.headers['x-test-mode'] }).toEqual({
        status,
        testMode: undefined,
      });
    },
  );

  it('documents X-Test-Mode (optional) on every response of every operation, those needing no key too', async () => {
    const document = (await sut.http().get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const missing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        Object.entries(operation.responses)
          .filter(([, response]) => response.headers?.['X-Test-Mode'] === undefined)
          .map(([status]) => `${method.toUpperCase()} ${path} ${status}`),
      ),
    );
    expect(missing).toEqual([]);
    expect(document.paths['/v1'].get.responses['200'].headers?.['X-Test-Mode']).toMatchObject({ required: false });
  });

  it('keeps live and test records apart both ways; a sandbox record carries the sandbox’s teamId', async () => {
    const inSandbox = await as(test).post('/v1/units', { ...UNIT, externalRef: 'SAME-REF' });
    const inLive = await as(live).post('/v1/units', { ...UNIT, externalRef: 'SAME-REF' });
    expect([inSandbox.status, inLive.status]).toEqual([201, 201]);
    const sandboxUnit = (inSandbox.body as { data: { id: string; teamId: string } }).data;
    const liveUnit = (inLive.body as { data: { id: string; teamId: string } }).data;
    expect(sandboxUnit.teamId).toBe(test.sandboxTeamId);
    expect(liveUnit.teamId).toBe(live.teamId);
    expectError(await as(live).get(`/v1/units/${sandboxUnit.id}`), 404);
    expectError(await as(test).get(`/v1/units/${liveUnit.id}`), 404);
    const liveIds = ((await as(live).get('/v1/units')).body as Page<{ id: string }>).data.map(({ id }) => id);
    const testIds = ((await as(test).get('/v1/units')).body as Page<{ id: string }>).data.map(({ id }) => id);
    expect(liveIds).toContain(liveUnit.id);
    expect(liveIds).not.toContain(sandboxUnit.id);
    expect(testIds).toContain(sandboxUnit.id);
    expect(testIds).not.toContain(liveUnit.id);
    const liveEvents = JSON.stringify((await as(live).get('/v1/events')).body);
    const testEvents = JSON.stringify((await as(test).get('/v1/events')).body);
    expect(liveEvents).toContain(liveUnit.id);
    expect(liveEvents).not.toContain(sandboxUnit.id);
    expect(testEvents).toContain(sandboxUnit.id);
    expect(testEvents).not.toContain(liveUnit.id);
  });

  it('validates and limits a test key like a live one, in the key’s own rate-limit window', async () => {
    const bad = await as(test).post('/v1/units', { ...UNIT, postcode: 42 });
    const liveBad = await as(live).post('/v1/units', { ...UNIT, postcode: 42 });
    expectError(bad, 400);
    expect(bad.body).toEqual(liveBad.body);
    const before = Number((await as(live).get('/v1/units')).headers['x-ratelimit-remaining']);
    await as(test).get('/v1/units');
    await as(test).get('/v1/units');
    const after = Number((await as(live).get('/v1/units')).headers['x-ratelimit-remaining']);
    expect(after).toBe(before - 1);
  });

  it('refuses a reset with a live key (403) and changes nothing', async () => {
    const before = ((await as(live).get('/v1/units')).body as Page<unknown>).pagination.total;
    const refused = await as(live).post('/v1/sandbox/reset', {});
    expectError(refused, 403);
    expect((refused.body as { error: string }).error).toContain('test key');
    expect(((await as(live).get('/v1/units')).body as Page<unknown>).pagination.total).toBe(before);
    expect(before).toBeGreaterThan(0);
  });

  it('refuses a live key’s reset (403) before validating its body or query; a test key’s bad body is 400', async () => {
    const live403 = await as(live).post('/v1/sandbox/reset', {});
    const refusals = await Promise.all([
      as(live).post('/v1/sandbox/reset', { bogus: 1 }),
      as(live).post('/v1/sandbox/reset', { sampleData: 'yes' }),
      as(live).post('/v1/sandbox/reset?bogus=1', {}),
    ]);
    for (const refused of [live403, ...refusals]) {
      expectError(refused, 403);
      expect(refused.body).toEqual(live403.body);
    }
    expectError(await as(test).post('/v1/sandbox/reset', { bogus: 1 }), 400);
    expectError(await as(test).post('/v1/sandbox/reset?bogus=1', {}), 400);
  });

  it('takes an empty body, {} and {"sampleData": false} alike: the sandbox emptied, nothing loaded', async () => {
    const bare = await sut
      .http()
      .post('/v1/sandbox/reset')
      .set(...bearer(test));
    const none = await as(test).post('/v1/sandbox/reset', { sampleData: false });
    for (const answer of [bare, none]) {
      expect(answer.status).toBe(202);
      expect(answer.headers['x-test-mode']).toBe('true');
      expect((answer.body as { data: Reset }).data).toMatchObject({
        teamId: test.sandboxTeamId,
        sampleData: false,
        records: { units: 0, tenants: 0, workOrders: 0 },
      });
    }
    expect(((await as(test).get('/v1/units')).body as Page<unknown>).pagination.total).toBe(0);
    expect(((await as(live).get('/v1/units')).body as Page<unknown>).pagination.total).toBeGreaterThan(0);
  });

  it('refuses a body that is not {} or {"sampleData": boolean}', async () => {
    expect(expectError(await as(test).post('/v1/sandbox/reset', { sampleData: 'yes' }), 400)).toContain('sampleData');
    expect(expectError(await as(test).post('/v1/sandbox/reset', { wipe: true }), 400)).toContain('wipe');
  });

  it('refuses {"sampleData": null} (400 naming it) and empties nothing: null is no boolean', async () => {
    expect((await as(test).post('/v1/sandbox/reset', { sampleData: true })).status).toBe(202);
    const refused = await as(test).post('/v1/sandbox/reset', { sampleData: null });
    expect(expectError(refused, 400)).toBe('sampleData must be a boolean value');
    expect(((await as(test).get('/v1/units?pageSize=1')).body as Page<unknown>).pagination.total).toBe(
      SAMPLE_COUNTS.units,
    );
  });

  it('fills the sandbox with the sample portfolio: the contract’s counts, every status, notes and history', async () => {
    const answer = await as(test).post('/v1/sandbox/reset', { sampleData: true });
    expect(answer.status).toBe(202);
    const reset = (answer.body as { data: Reset }).data;
    expect(reset).toMatchObject({ teamId: test.sandboxTeamId, sampleData: true, records: SAMPLE_COUNTS_WITH_NOTES });
    const total = async (path: string) => ((await as(test).get(path)).body as Page<unknown>).pagination.total;
    expect(await total('/v1/units?pageSize=1')).toBe(SAMPLE_COUNTS.units);
    expect(await total('/v1/tenants?pageSize=1')).toBe(SAMPLE_COUNTS.tenants);
    expect(await total('/v1/landlords?pageSize=1')).toBe(SAMPLE_COUNTS.landlords);
    expect(await total('/v1/contractors?pageSize=1')).toBe(SAMPLE_COUNTS.contractors);
    expect(await total('/v1/work-orders?pageSize=1')).toBe(SAMPLE_COUNTS.workOrders);
    // The contract's floor.
    expect(SAMPLE_COUNTS.units).toBeGreaterThanOrEqual(20);
    expect(SAMPLE_COUNTS.tenants).toBeGreaterThanOrEqual(30);
    expect(SAMPLE_COUNTS.landlords).toBeGreaterThanOrEqual(3);
    expect(SAMPLE_COUNTS.contractors).toBeGreaterThanOrEqual(5);
    expect(SAMPLE_COUNTS.workOrders).toBeGreaterThanOrEqual(40);
    for (const status of ['reported', 'in_progress', 'completed', 'cancelled']) {
      expect(await total(`/v1/work-orders?status=${status}&pageSize=1`)).toBeGreaterThan(0);
    }
    const orders = ((await as(test).get('/v1/work-orders?status=completed&pageSize=1')).body as Page<{ id: string }>)
      .data;
    const history = (await as(test).get(`/v1/work-orders/${orders[0].id}/history`)).body as Page<{ type?: string }>;
    expect(history.pagination.total).toBeGreaterThanOrEqual(3);
    const notes = await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM work_order_notes WHERE team_id = $1', [
      test.sandboxTeamId,
    ]);
    expect(notes[0].n).toBe(reset.records.workOrderNotes);
    expect(reset.records.workOrderNotes).toBeGreaterThan(0);
    // Every sample record is the sandbox's; the live team gained nothing.
    const liveCounts = await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM work_orders WHERE team_id = $1', [
      live.teamId,
    ]);
    expect(liveCounts[0].n).toBe(0);
  });

  it('gives the same sample on every reset (a seeded generator)', async () => {
    const names = async () =>
      (
        (await as(test).get('/v1/tenants?pageSize=50')).body as Page<{
          firstName: string;
          lastName: string;
          externalRef: string;
        }>
      ).data
        .map((tenant) => `${tenant.externalRef} ${tenant.firstName} ${tenant.lastName}`)
        .sort();
    const first = await names();
    expect((await as(test).post('/v1/sandbox/reset', { sampleData: true })).status).toBe(202);
    expect(await names()).toEqual(first);
    expect(first).toHaveLength(SAMPLE_COUNTS.tenants);
  });

  it('empties records with their notes, attachments and history, and imports; events and webhook endpoints stay', async () => {
    const endpoint = await as(test).post('/v1/webhook-endpoints', {
      url: 'https://example.com/hooks',
      types: ['unit.created'],
    });
    expect(endpoint.status).toBe(201);
    const [order] = ((await as(test).get('/v1/work-orders?pageSize=1')).body as Page<{ id: string }>).data;
    const upload = await sut
      .http()
      .post(`/v1/work-orders/${order.id}/attachments`)
      .set(...bearer(test))
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 'quote.pdf', contentType: 'application/pdf' });
    expect(upload.status).toBe(201);
    const imported = await sut
      .http()
      .post('/v1/imports?resource=units')
      .set(...bearer(test))
      .set('Content-Type', 'text/csv')
      .send('addressLine1,city,postcode,country\n2 Test Street,Bristol,BS1 1AB,United Kingdom\n');
    expect(imported.status).toBe(202);
    const eventsBefore = ((await as(test).get('/v1/events?limit=1')).body as { data: unknown[] }).data.length;
    expect(eventsBefore).toBe(1);

    const answer = await as(test).post('/v1/sandbox/reset', {});
    expect(answer.status).toBe(202);
    expect((answer.body as { data: Reset }).data).toMatchObject({
      sampleData: false,
      records: { units: 0, workOrders: 0 },
    });

    const counts = await sut.sql<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM units WHERE team_id = $1) AS units,
              (SELECT count(*)::int FROM tenants WHERE team_id = $1) AS tenants,
              (SELECT count(*)::int FROM work_orders WHERE team_id = $1) AS work_orders,
              (SELECT count(*)::int FROM work_order_notes WHERE team_id = $1) AS notes,
              (SELECT count(*)::int FROM work_order_attachments WHERE team_id = $1) AS attachments,
              (SELECT count(*)::int FROM record_history WHERE team_id = $1) AS history,
              (SELECT count(*)::int FROM imports WHERE team_id = $1) AS imports,
              (SELECT count(*)::int FROM webhook_endpoints WHERE team_id = $1) AS endpoints,
              (SELECT count(*)::int FROM events WHERE team_id = $1) AS events`,
      [test.sandboxTeamId],
    );
    expect(counts[0]).toMatchObject({
      units: 0,
      tenants: 0,
      work_orders: 0,
      notes: 0,
      attachments: 0,
      history: 0,
      imports: 0,
      endpoints: 1,
    });
    expect(counts[0].events).toBeGreaterThan(0);
    expect(((await as(test).get('/v1/units')).body as Page<unknown>).pagination.total).toBe(0);
    expect(((await as(test).get('/v1/imports')).body as Page<unknown>).pagination.total).toBe(0);
    expectError(await as(test).get(`/v1/work-orders/${order.id}`), 404);
    // The live team's records are untouched.
    expect(((await as(live).get('/v1/units')).body as Page<unknown>).pagination.total).toBeGreaterThan(0);
  });
});

const SAMPLE_COUNTS_WITH_NOTES = {
  landlords: SAMPLE_COUNTS.landlords,
  contractors: SAMPLE_COUNTS.contractors,
  units: SAMPLE_COUNTS.units,
  tenants: SAMPLE_COUNTS.tenants,
  workOrders: SAMPLE_COUNTS.workOrders,
};
