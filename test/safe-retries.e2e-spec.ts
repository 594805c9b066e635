import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '@app/common';
import { createLandlord, landlordInput, listLandlords } from './factories/landlords.js';
import { createTenant as createTenantRecord } from './factories/tenants.js';
import { createUnit as createUnitRecord } from './factories/units.js';
import { createUnit, createTenant, createWorkOrder } from './factories/work-orders.js';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

const HOUR = 60 * 60_000;

describe('Idempotency-Key', () => {
  let sut: TestApp;
  let team: Team;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  const postLandlord = (key: string | undefined, body: object) => {
    const request = sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team));
    return (key === undefined ? request : request.set('Idempotency-Key', key)).send(body);
  };
  const landlordsNamed = async (name: string): Promise<number> =>
    Number(
      (await sut.sql('SELECT count(*) AS n FROM landlords WHERE team_id = $1 AND name = $2', [team.teamId, name]))[0].n,
    );

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  it('replays the first answer for the same request, with Idempotent-Replayed, and writes nothing more', async () => {
    const body = landlordInput({ name: 'Replayed Estates' });
    const first = await postLandlord('replay-1', body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBe('false');
    // Same JSON value, other key order and whitespace.
    const again = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .set('Idempotency-Key', 'replay-1')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 3));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await landlordsNamed('Replayed Estates')).toBe(1);
  });

  it('answers 422 for the same key with another body, path or method, and changes nothing', async () => {
    expect((await postLandlord('reuse-1', landlordInput({ name: 'First body' }))).status).toBe(201);
    expectError(await postLandlord('reuse-1', landlordInput({ name: 'Second body' })), 422);
    const otherPath = await sut
      .http()
      .post('/v1/units')
      .set(...bearer(team))
      .set('Idempotency-Key', 'reuse-1')
      .send({ addressLine1: '1 High St', city: 'Leeds', country: 'UK', postcode: 'LS1 1AA' });
    expectError(otherPath, 422);
    expect(await landlordsNamed('Second body')).toBe(0);
    expect(Number((await sut.sql('SELECT count(*) AS n FROM units WHERE team_id = $1', [team.teamId]))[0].n)).toBe(0);
  });

  it('stores a 400 and replays it; refuses a malformed key with 400', async () => {
    const invalid = await postLandlord('bad-body-1', { name: '' });
    expectError(invalid, 400);
    const replay = await postLandlord('bad-body-1', { name: '' });
    expect(replay.status).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(invalid.body);
    // A query parameter the operation does not declare: also a 400 stored under the key, so the key is taken.
    const withQuery = () =>
      sut
        .http()
        .post('/v1/landlords?colour=red')
        .set(...bearer(team))
        .set('Idempotency-Key', 'bad-query-1')
        .send(landlordInput({ name: 'Queried Estates' }));
    const refused = await withQuery();
    expect(expectError(refused, 400)).toBe('query parameter colour is not allowed');
    expect(refused.headers['idempotent-replayed']).toBe('false');
    const replayedRefusal = await withQuery();
    expect(replayedRefusal.status).toBe(400);
    expect(replayedRefusal.headers['idempotent-replayed']).toBe('true');
    expectError(await postLandlord('bad-query-1', landlordInput({ name: 'Queried Estates' })), 422);
    expect(await landlordsNamed('Queried Estates')).toBe(0);
    expect(expectError(await postLandlord('', landlordInput()), 400)).toMatch(/Idempotency-Key/);
    expect(expectError(await postLandlord('a'.repeat(256), landlordInput()), 400)).toMatch(/Idempotency-Key/);
    expect(expectError(await postLandlord('has space', landlordInput()), 400)).toMatch(/Idempotency-Key/);
  });

  it('makes exactly one record of two simultaneous POSTs with one key; the other is 409 or the replay', async () => {
    const body = landlordInput({ name: 'Concurrent Lettings' });
    const answers = await Promise.all([postLandlord('race-1', body), postLandlord('race-1', body)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      expect([201, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body).toEqual({ error: expect.stringMatching(/in progress/) });
    }
    expect(await landlordsNamed('Concurrent Lettings')).toBe(1);
  });

  it('frees the key 24 hours after the first answer, and the cleanup deletes what expired', async () => {
    const body = landlordInput({ name: 'Yesterday Homes' });
    expect((await postLandlord('daily-1', body)).status).toBe(201);
    clock.advance(24 * HOUR - 1_000);
    expect((await postLandlord('daily-1', body)).headers['idempotent-replayed']).toBe('true');
    clock.advance(2_000);
    const fresh = await postLandlord('daily-1', body);
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBe('false');
    expect(await landlordsNamed('Yesterday Homes')).toBe(2);

    const { IdempotencyCleanup } = await import('@app/common');
    clock.advance(24 * HOUR + 1_000);
    const before = await sut.sql('SELECT count(*) AS n FROM idempotency_keys WHERE team_id = $1', [team.teamId]);
    expect(Number(before[0].n)).toBeGreaterThan(0);
    await sut.app.get(IdempotencyCleanup).run();
    const after = await sut.sql('SELECT count(*) AS n FROM idempotency_keys WHERE team_id = $1', [team.teamId]);
    expect(Number(after[0].n)).toBe(0);
  });

  it('does not store a 500: the retry runs anew', async () => {
    // A fault the service cannot map: a trigger that raises for one name.
    await sut.sql(`CREATE FUNCTION fail_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'Faulty Holdings' THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$`);
    await sut.sql(
      'CREATE TRIGGER fail_for_test BEFORE INSERT ON landlords FOR EACH ROW EXECUTE FUNCTION fail_for_test()',
    );
    const body = landlordInput({ name: 'Faulty Holdings' });
    const failed = await postLandlord('fault-1', body);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: 'Internal server error' });
    await sut.sql('DROP TRIGGER fail_for_test ON landlords');
    const retried = await postLandlord('fault-1', body);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('false');
    expect(await landlordsNamed('Faulty Holdings')).toBe(1);
  });

  it('keeps keys per team: another team may use the same key for its own request', async () => {
    const other = await sut.createTeam('Other team');
    expect((await postLandlord('shared-key', landlordInput({ name: 'Team A' }))).status).toBe(201);
    const theirs = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(other))
      .set('Idempotency-Key', 'shared-key')
      .send(landlordInput({ name: 'Team B' }));
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBe('false');
    expect(theirs.body.data.name).toBe('Team B');
  });

  it('replays a work order create without taking another code', async () => {
    const unit = await createUnit(sut, team);
    const send = () =>
      sut
        .http()
        .post('/v1/work-orders')
        .set(...bearer(team))
        .set('Idempotency-Key', 'wo-1')
        .send({ title: 'Leaking kitchen tap', unitId: unit.id });
    const first = await send();
    const replay = await send();
    expect(first.status).toBe(201);
    expect(replay.body.data.code).toBe(first.body.data.code);
    const next = await createWorkOrder(sut, team, unit.id);
    expect(Number(next.code.slice(3))).toBe(Number(first.body.data.code.slice(3)) + 1);
  });
});

describe('ETags and preconditions', () => {
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  it("changes a work order's ETag when its tenant is renamed; a stale If-Match is 412 and changes nothing", async () => {
    const unit = await createUnit(sut, team);
    const tenant = await createTenant(sut, team);
    const workOrder = await createWorkOrder(sut, team, unit.id, { tenantId: tenant.id });
    const path = `/v1/work-orders/${workOrder.id}`;
    const before = await sut
      .http()
      .get(path)
      .set(...bearer(team));
    const rename = await sut
      .http()
      .put(`/v1/tenants/${tenant.id}`)
      .set(...bearer(team))
      .send({ firstName: 'Renamed' });
    expect(rename.status).toBe(200);
    const after = await sut
      .http()
      .get(path)
      .set(...bearer(team));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.data.updatedAt).toBe(before.body.data.updatedAt);

    const stale = await sut
      .http()
      .put(path)
      .set(...bearer(team))
      .set('If-Match', before.headers.etag)
      .send({ title: 'Overwritten' });
    expectError(stale, 412);
    const unchanged = await sut
      .http()
      .get(path)
      .set(...bearer(team));
    expect(unchanged.body).toEqual(after.body);

    const current = await sut
      .http()
      .put(path)
      .set(...bearer(team))
      .set('If-Match', after.headers.etag)
      .send({ title: 'Applied' });
    expect(current.status).toBe(200);
    expect(current.body.data.title).toBe('Applied');
  });
});

describe('DELETE', () => {
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  const remove = (path: string, as: Team = team) =>
    sut
      .http()
      .delete(path)
      .set(...bearer(as));

  it('refuses a unit that work orders refer to with 409 naming them, and changes nothing', async () => {
    const unit = await createUnitRecord(sut, team);
    const workOrder = await createWorkOrder(sut, team, unit.id);
    const refused = await remove(`/v1/units/${unit.id}`);
    expect(expectError(refused, 409)).toContain(workOrder.code);
    const still = await sut
      .http()
      .get(`/v1/units/${unit.id}`)
      .set(...bearer(team));
    expect(still.status).toBe(200);
  });

  it('deletes a unit: GET 404, the list total one less, its tenant links gone, a link to it 400', async () => {
    const unit = await createUnitRecord(sut, team);
    const tenant = await createTenantRecord(sut, team, { unitIds: [unit.id] });
    const before = (
      await sut
        .http()
        .get('/v1/units')
        .set(...bearer(team))
    ).body.pagination.total as number;
    const deleted = await remove(`/v1/units/${unit.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(
      await sut
        .http()
        .get(`/v1/units/${unit.id}`)
        .set(...bearer(team)),
      404,
    );
    const after = await sut
      .http()
      .get('/v1/units')
      .set(...bearer(team));
    expect(after.body.pagination.total).toBe(before - 1);
    const tenantNow = await sut
      .http()
      .get(`/v1/tenants/${tenant.id}`)
      .set(...bearer(team));
    expect(tenantNow.body.data.tenantUnits).toEqual([]);
    const link = await sut
      .http()
      .post('/v1/work-orders')
      .set(...bearer(team))
      .send({ title: 'Dripping tap', unitId: unit.id });
    expectError(link, 400);
    expectError(await remove(`/v1/units/${unit.id}`), 404);
  });

  it('deletes a work order: totals stay exact and its code is never given again', async () => {
    const unit = await createUnit(sut, team);
    const first = await createWorkOrder(sut, team, unit.id);
    const total = async (): Promise<number> =>
      (
        await sut
          .http()
          .get('/v1/work-orders?status=reported')
          .set(...bearer(team))
      ).body.pagination.total as number;
    const before = await total();
    expect((await remove(`/v1/work-orders/${first.id}`)).status).toBe(204);
    expect(await total()).toBe(before - 1);
    const next = await createWorkOrder(sut, team, unit.id);
    expect(Number(next.code.slice(3))).toBe(Number(first.code.slice(3)) + 1);
  });

  it('refuses a tenant and a contractor still referred to, then deletes them once free', async () => {
    const unit = await createUnit(sut, team);
    const tenant = await createTenantRecord(sut, team);
    const contractor = await sut
      .http()
      .post('/v1/contractors')
      .set(...bearer(team))
      .send({ companyName: 'Pipe & Co', contactName: 'Sam' });
    const workOrder = await createWorkOrder(sut, team, unit.id, {
      tenantId: tenant.id,
      contractorId: contractor.body.data.id as string,
    });
    expectError(await remove(`/v1/tenants/${tenant.id}`), 409);
    expectError(await remove(`/v1/contractors/${contractor.body.data.id}`), 409);
    await sut
      .http()
      .put(`/v1/work-orders/${workOrder.id}`)
      .set(...bearer(team))
      .send({ tenantId: null, contractorId: null });
    expect((await remove(`/v1/tenants/${tenant.id}`)).status).toBe(204);
    expect((await remove(`/v1/contractors/${contractor.body.data.id}`)).status).toBe(204);
  });
});

describe('updatedSince and sort', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('walks every change page by page with updatedSince + sort=updatedAt, even when records change meanwhile', async () => {
    const walkTeam = await sut.createTeam('Walk');
    const all: string[] = [];
    for (let i = 0; i < 7; i++) all.push((await createLandlord(sut, walkTeam, { name: `Walk ${i}` })).id);
    const seen = new Set<string>();
    let since: string | undefined;
    let page = 1;
    for (let round = 0; round < 20; round++) {
      const query: Record<string, string | number> = { sort: 'updatedAt', pageSize: 3, page };
      if (since) query.updatedSince = since;
      const records = (await listLandlords(sut, walkTeam, query)).body.data as Array<{ id: string; updatedAt: string }>;
      records.forEach((record) => seen.add(record.id));
      if (round === 0) {
        // A record already seen changes during the walk: it comes round again, and nothing is skipped.
        await sut
          .http()
          .put(`/v1/landlords/${records[0].id}`)
          .set(...bearer(walkTeam))
          .send({ notes: 'changed during the walk' });
      }
      if (records.length < 3) break;
      // The next page starts at the last change seen (>= repeats it; a page of one timestamp pages on).
      const last = records[records.length - 1].updatedAt;
      if (last === since) page++;
      else [since, page] = [last, 1];
    }
    expect([...seen].sort()).toEqual([...all].sort());
  });
});

describe('the OpenAPI document', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('documents the headers, statuses and parameters of safe retries on every resource', async () => {
    const doc = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ in: string; name: string }>; responses: Record<string, unknown> }>
      >;
    };
    const headersOf = (operation: { parameters?: Array<{ in: string; name: string }> }): string[] =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    for (const [collection, one] of [
      ['/v1/contractors', '/v1/contractors/{contractorId}'],
      ['/v1/landlords', '/v1/landlords/{landlordId}'],
      ['/v1/units', '/v1/units/{unitId}'],
      ['/v1/tenants', '/v1/tenants/{tenantId}'],
      ['/v1/work-orders', '/v1/work-orders/{workOrderId}'],
    ]) {
      const { post, get: list } = doc.paths[collection];
      const { get, put, delete: remove } = doc.paths[one];
      expect(headersOf(post)).toEqual(['Idempotency-Key']);
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '409', '422']));
      expect(headersOf(get)).toEqual(['If-None-Match']);
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
      expect(headersOf(put).sort()).toEqual(['Idempotency-Key', 'If-Match']);
      expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '412', '422']));
      expect(headersOf(remove).sort()).toEqual(['Idempotency-Key', 'If-Match']);
      expect(Object.keys(remove.responses)).toEqual(expect.arrayContaining(['204', '404', '409', '412', '422']));
      expect((list.parameters ?? []).map((p) => p.name)).toEqual(expect.arrayContaining(['sort', 'updatedSince']));
    }
    // A keyed write's refusals, stored and sent again, carry Idempotent-Replayed too; those made before the key
    // is read (401, 403, 429) never do.
    const marked = (operation: { responses: Record<string, unknown> }, status: string): boolean =>
      Boolean((operation.responses[status] as { headers?: Record<string, unknown> }).headers?.['Idempotent-Replayed']);
    const put = doc.paths['/v1/units/{unitId}'].put;
    expect(['200', '400', '404', '409', '412', '422'].filter((status) => !marked(put, status))).toEqual([]);
    expect(['401', '403', '429'].filter((status) => marked(put, status))).toEqual([]);
  });
});
