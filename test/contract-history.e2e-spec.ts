import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDemoRecords } from '../apps/api/src/demo-records.js';
import { ManualClock, type EventBody } from '@app/common';
import { ApiKeysService, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { EventsCleanup } from '../apps/api/src/events/index.js';
import { expectError, ISO_WITH_MS } from './support/assertions.js';
import { UNKNOWN_ID } from './support/inputs.js';
import { bodySchemaOf, createRecord, RESOURCES_UNDER_TEST, type RecordBody } from './support/resources.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// Every record's history (CONTRACT "History of every record"), asserted once per resource of the registration
// list, as test/contract.e2e-spec.ts does for the generic contract: a resource added there, generated ones
// included, is under it without a line of its own. Every answer is checked against the served document.

const DAY = 86_400_000;

interface Entry {
  id: string;
  type: string;
  at: string;
  actor: { type: string; id?: string; name?: string | null };
  changes: Record<string, { from: unknown; to: unknown }> | null;
  subjectId: string | null;
}

interface Parameter {
  name: string;
  example?: unknown;
  schema?: { example?: unknown };
}

/** The example Swagger UI pre-fills for a path parameter. */
const exampleOf = (parameters: Parameter[] | undefined, name: string): unknown => {
  const found = parameters?.find((parameter) => parameter.name === name);
  return found?.example ?? found?.schema?.example;
};

interface HistoryPage {
  data: Entry[];
  pagination: { total: number; page: number; pageSize: number; pageCount: number };
}

describe.each(RESOURCES_UNDER_TEST.filter((resource) => resource.eventType))('$path/{id}/history', (resource) => {
  const { api, path, idParam, notFound, eventType } = resource;
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 9));
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    team = await sut.createTeam('History team');
  });
  afterAll(() => sut.close());

  const history = (id: string, as: Team = team, query: Record<string, number> = {}) =>
    sut
      .http()
      .get(`${path}/${id}/history`)
      .query(query)
      .set(...bearer(as));
  const entriesOf = async (id: string, as: Team = team): Promise<Entry[]> => {
    const response = await history(id, as, { pageSize: 50 });
    expect(response.status).toBe(200);
    return (response.body as HistoryPage).data;
  };
  const create = (as: Team = team): Promise<RecordBody> => createRecord(sut, as, resource);
  /** A change any record of the resource takes: its first plain text field, set to `value`. */
  const textField = (): string => {
    const properties = bodySchemaOf(sut, resource, 'update').properties ?? {};
    const found = Object.entries(properties).find(
      ([, property]) => property.type === 'string' && !property.format && !property.enum && !property.$ref,
    );
    if (!found) throw new Error(`${path} has no plain text field to change`);
    return found[0];
  };
  const rowsOf = async (id: string): Promise<number> => {
    const [row] = await sut.sql<{ count: number }>(
      'SELECT count(*)::int AS count FROM record_history WHERE team_id = $1 AND record_id = $2',
      [team.teamId, id],
    );
    return row.count;
  };

  it('starts with `created`, naming the key that made it (its id and name, never its secret)', async () => {
    const record = await create();
    const response = await history(record.id);
    expect(response.status).toBe(200);
    const page = response.body as HistoryPage;
    expect(page).toEqual({
      data: [
        {
          id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
          type: 'created',
          at: new Date(clock.now()).toISOString(),
          actor: { type: 'api_key', id: team.apiKeyId, name: 'default' },
          changes: null,
          subjectId: null,
        },
      ],
      pagination: { total: 1, page: 1, pageSize: 20, pageCount: 1 },
    });
    expect(response.text).not.toContain(team.apiKey);
    expect(response.text).not.toContain(team.apiKey.slice(4, 20));
  });

  it('records a PUT as `updated` with each changed field {from, to} and its own key; `{}` when nothing changed', async () => {
    const record = await create();
    const desk = await sut.app.get(ApiKeysService).createKey(team.teamId, 'Front desk');
    const field = textField();
    clock.advance(60_000);
    const changed = await api.put(sut, { apiKey: desk.apiKey, teamId: team.teamId }, record.id, {
      [field]: 'Changed for the history',
    });
    expect(changed.status).toBe(200);
    clock.advance(60_000);
    expect((await api.put(sut, team, record.id, {})).status).toBe(200);

    const [unchanged, updated, created] = await entriesOf(record.id);
    expect(created.type).toBe('created');
    expect(updated).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'updated',
      at: new Date(clock.now() - 60_000).toISOString(),
      actor: { type: 'api_key', id: desk.apiKeyId, name: 'Front desk' },
      // The field, and any field derived from it (a unit's fullAddress), as GET one shows them before and after.
      changes: expect.objectContaining({ [field]: { from: record[field], to: 'Changed for the history' } }),
      subjectId: null,
    });
    const after = (changed.body as { data: RecordBody }).data;
    for (const [name, change] of Object.entries(updated.changes ?? {})) {
      expect({ name, change }).toEqual({ name, change: { from: record[name], to: after[name] } });
    }
    expect(unchanged).toMatchObject({ type: 'updated', actor: { id: team.apiKeyId } });
    expect(unchanged.changes).toEqual({});
    expect(JSON.stringify([unchanged, updated, created])).not.toContain('updatedAt');
  });

  it('lists newest first, in the order the changes committed, as the events feed numbered them', async () => {
    const record = await create();
    // Same instant for all: only the commit order can order them.
    for (let i = 0; i < 3; i += 1) expect((await api.put(sut, team, record.id, {})).status).toBe(200);
    const entries = await entriesOf(record.id);
    expect(entries.map((entry) => entry.type)).toEqual(['updated', 'updated', 'updated', 'created']);
    const feed = await sut
      .http()
      .get('/v1/events')
      .query({ types: `${eventType}.created,${eventType}.updated`, limit: 100 })
      .set(...bearer(team));
    const announced = (feed.body as { data: EventBody[] }).data
      .filter((event) => (event.data.object as { id: string }).id === record.id)
      .map((event) => event.id);
    expect(entries.map((entry) => entry.id)).toEqual(announced.reverse());
  });

  it('pages with page and pageSize, with the true total', async () => {
    const record = await create();
    for (let i = 0; i < 4; i += 1) expect((await api.put(sut, team, record.id, {})).status).toBe(200);
    const all = (await entriesOf(record.id)).map((entry) => entry.id);
    const pages = await Promise.all([1, 2, 3].map((page) => history(record.id, team, { page, pageSize: 2 })));
    expect(pages.flatMap((page) => (page.body as HistoryPage).data.map((entry) => entry.id))).toEqual(all);
    expect(pages.map((page) => (page.body as HistoryPage).pagination)).toEqual(
      [1, 2, 3].map((page) => ({ total: 5, page, pageSize: 2, pageCount: 3 })),
    );
    expect(expectError(await history(record.id, team, { pageSize: 51 }), 400)).toMatch(/^pageSize /);
    expect(
      expectError(
        await sut
          .http()
          .get(`${path}/${record.id}/history?sort=at`)
          .set(...bearer(team)),
        400,
      ),
    ).toMatch(/sort/);
  });

  it(`answers 404 "${notFound}" for another team's record or a missing one, 400 for an id that is not a UUID`, async () => {
    const other = await sut.createTeam('Other team');
    const record = await create();
    expect(expectError(await history(record.id, other), 404)).toBe(notFound);
    expect(expectError(await history(UNKNOWN_ID), 404)).toBe(notFound);
    expect(expectError(await history('not-a-uuid'), 400)).toBe(`${idParam} must be a UUID`);
    expect(expectError(await sut.http().get(`${path}/${record.id}/history`), 401)).toBeTruthy();
  });

  it('answers an empty history for a record that has no entries (one made before histories were kept)', async () => {
    const record = await create();
    await sut.sql('DELETE FROM record_history WHERE team_id = $1 AND record_id = $2', [team.teamId, record.id]);
    expect((await history(record.id)).body).toEqual({
      data: [],
      pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 },
    });
  });

  it('keeps the history beyond the 30 days the feed keeps its events', async () => {
    const keeper = await sut.createTeam('Keeper');
    const record = await create(keeper);
    clock.advance(31 * DAY);
    await sut.app.get(EventsCleanup).run();
    const feed = await sut
      .http()
      .get('/v1/events')
      .set(...bearer(keeper));
    expect((feed.body as { data: EventBody[] }).data).toEqual([]);
    const entries = await entriesOf(record.id, keeper);
    expect(entries.map((entry) => [entry.type, entry.at])).toEqual([
      ['created', new Date(clock.now() - 31 * DAY).toISOString()],
    ]);
    expect(entries[0].at).toMatch(ISO_WITH_MS);
  });

  it('deletes the history with the record: 404 afterwards, and no row left', async () => {
    const record = await create();
    expect((await api.put(sut, team, record.id, {})).status).toBe(200);
    expect(await rowsOf(record.id)).toBe(2);
    expect((await api.remove(sut, team, record.id)).status).toBe(204);
    expect(expectError(await history(record.id), 404)).toBe(notFound);
    expect(await rowsOf(record.id)).toBe(0);
  });

  it('writes no entry for a write that was refused: a stale If-Match (412), an invalid body (400), a replay', async () => {
    const record = await create();
    const stale = await sut
      .http()
      .put(`${path}/${record.id}`)
      .set(...bearer(team))
      .set('If-Match', '"stale"')
      .send({});
    expectError(stale, 412);
    expectError(await api.put(sut, team, record.id, { nickname: 'x' }), 400);
    const staleDelete = await sut
      .http()
      .delete(`${path}/${record.id}`)
      .set(...bearer(team))
      .set('If-Match', '"stale"');
    expectError(staleDelete, 412);
    for (let i = 0; i < 2; i += 1) {
      const keyed = await sut
        .http()
        .put(`${path}/${record.id}`)
        .set(...bearer(team))
        .set('Idempotency-Key', `history-${record.id}`)
        .send({});
      expect(keyed.status).toBe(200);
    }
    expect((await entriesOf(record.id)).map((entry) => entry.type)).toEqual(['updated', 'created']);
  });

  it('is documented under the resource’s tag, with the id example GET one shows', async () => {
    const doc = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { tags?: string[]; parameters?: Parameter[] }>>;
    };
    const one = doc.paths[`${path}/{${idParam}}`].get;
    const operation = doc.paths[`${path}/{${idParam}}/history`]?.get;
    expect(operation?.tags).toEqual(one.tags);
    expect(operation?.tags?.length).toBeGreaterThan(0);
    expect(exampleOf(operation?.parameters, idParam)).toEqual(exampleOf(one.parameters, idParam));
  });
});

describe('history beyond one resource', () => {
  let sut: TestApp;
  let team: CreatedKey;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Life of a repair');
  });
  afterAll(() => sut.close());

  const post = async (path: string, body: object): Promise<RecordBody> => {
    const response = await sut
      .http()
      .post(path)
      .set(...bearer(team))
      .send(body);
    expect(response.status).toBe(201);
    return (response.body as { data: RecordBody }).data;
  };
  const put = (path: string, body: object) =>
    sut
      .http()
      .put(path)
      .set(...bearer(team))
      .send(body);

  it('reads a work order’s status moves as changes of status', async () => {
    const unit = await post('/v1/units', {
      addressLine1: '2 Mill Lane',
      city: 'Leeds',
      postcode: 'LS1 4AP',
      country: 'UK',
    });
    const workOrder = await post('/v1/work-orders', { title: 'Leaking tap', unitId: unit.id });
    expect(workOrder.status).toBe('reported');
    expect((await put(`/v1/work-orders/${workOrder.id}`, { status: 'in_progress' })).status).toBe(200);
    expect((await put(`/v1/work-orders/${workOrder.id}`, { status: 'completed' })).status).toBe(200);
    const response = await sut
      .http()
      .get(`/v1/work-orders/${workOrder.id}/history`)
      .set(...bearer(team));
    const [completed, started, created] = (response.body as HistoryPage).data;
    expect(created.type).toBe('created');
    expect(started.changes).toEqual({ status: { from: 'reported', to: 'in_progress' } });
    expect(completed.changes).toMatchObject({ status: { from: 'in_progress', to: 'completed' } });
  });

  it('gives the demo team’s example records their `created` entry, made by the service itself, and the nested examples’ `_added`', async () => {
    const demo = await sut.createTeam('Demo team');
    const ids = await createDemoRecords(sut.app, demo);
    const doc = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    };
    const checked: string[] = [];
    for (const { path, idParam } of RESOURCES_UNDER_TEST) {
      const example = exampleOf(doc.paths[`${path}/{${idParam}}/history`]?.get.parameters, idParam);
      if (typeof example !== 'string') continue;
      expect(ids).toContain(example);
      const response = await sut
        .http()
        .get(`${path}/${example}/history`)
        .set(...bearer(demo));
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const entries = (response.body as HistoryPage).data.map(({ type, actor }) => ({ type, actor }));
      // The record's own entry comes first (oldest, made by the service); the examples that live under it (the demo
      // work order's note) follow, added by the demo key that their `createdBy` names.
      expect({ path, first: entries.at(-1) }).toEqual({ path, first: { type: 'created', actor: { type: 'system' } } });
      for (const later of entries.slice(0, -1)) {
        expect({ path, later }).toEqual({
          path,
          later: {
            type: expect.stringMatching(/_added$/) as unknown,
            actor: expect.objectContaining({ type: 'api_key', id: demo.apiKeyId }) as unknown,
          },
        });
      }
      checked.push(path);
    }
    expect(checked.length).toBeGreaterThan(0);
  });

  it('announces the demo team’s example records as the API would: its attachment.created carries no signed URL', async () => {
    const demo = await sut.createTeam('Demo team, events');
    await createDemoRecords(sut.app, demo);
    const events = await sut
      .http()
      .get('/v1/events?types=attachment.created')
      .set(...bearer(demo));
    expect(events.status).toBe(200);
    const [created] = (events.body as { data: EventBody[] }).data;
    const object = created.data.object as { id: string; workOrderId: string };
    const read = await sut
      .http()
      .get(`/v1/work-orders/${object.workOrderId}/attachments/${object.id}`)
      .set(...bearer(demo));
    const { downloadUrl, downloadUrlExpiresAt, ...attachment } = (read.body as { data: Record<string, unknown> }).data;
    expect({ downloadUrl, downloadUrlExpiresAt }).toEqual({
      downloadUrl: expect.any(String),
      downloadUrlExpiresAt: expect.any(String),
    });
    // CONTRACT "Attachments": the event's object is the attachment without downloadUrl and downloadUrlExpiresAt.
    expect(created.data.object).toEqual(attachment);
  });
});
