import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventBody } from '@app/common';
import { expectError, expectFieldError, idsOf } from './support/assertions.js';
import { text, UNKNOWN_ID } from './support/inputs.js';
import {
  bodySchemaOf,
  countRows,
  createRecord,
  listParametersOf,
  newBody,
  RESOURCES_UNDER_TEST,
  type RecordBody,
} from './support/resources.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// The generic contract every resource keeps (CONTRACT "Cross-cutting rules", "Lists", "Conditional requests",
// "DELETE", "Following changes"), asserted once per resource of the registration list. Nothing here names a
// resource: a new one, generated ones included, is under it without a line of its own. A resource's own
// rules (fields, limits, filters, links, delete refusals) stay in its own spec.

/** Ids that are not UUIDs, each answered 400 "<idParam> must be a UUID". */
const NOT_UUIDS = ['not-a-uuid', 'abc', '123', 'null', 'WO-1', `${UNKNOWN_ID}0`];
/** Properties no body and no list takes. */
const UNKNOWN = ['nickname', 'website', 'colour', 'foo'];

describe.each(RESOURCES_UNDER_TEST)('$path: the generic contract', (resource) => {
  const { api, path, idParam, notFound } = resource;
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Contract team');
  });
  afterAll(() => sut.close());

  const create = (as: Team = team): Promise<RecordBody> => createRecord(sut, as, resource);
  const request = (method: 'get' | 'put' | 'delete', id: string, as: Team, headers: Record<string, string> = {}) =>
    sut
      .http()
      [method](`${path}/${id}`)
      .set(...bearer(as))
      .set(headers);

  describe('authentication', () => {
    it('answers 401 without a key or with a wrong one, before validating or looking anything up', async () => {
      const record = await create();
      const body = await newBody(sut, team, resource);
      const before = await countRows(sut, resource, team.teamId);
      expectError(await sut.http().post(path).send(body), 401);
      expectError(await sut.http().post(path).set('Authorization', 'Bearer ppk_unknown').send(body), 401);
      expectError(await sut.http().post(path).send({ nickname: 'x' }), 401);
      expectError(await sut.http().get(`${path}/${record.id}`), 401);
      expectError(
        await sut
          .http()
          .get(`${path}/${record.id}`)
          .set(...bearer('ppk_wrong')),
        401,
      );
      expectError(await sut.http().get(`${path}/not-a-uuid`), 401);
      expectError(await sut.http().put(`${path}/${record.id}`).send({ nickname: 'x' }), 401);
      expectError(
        await sut
          .http()
          .put(`${path}/${record.id}`)
          .set(...bearer('ppk_nope'))
          .send({}),
        401,
      );
      expectError(await sut.http().delete(`${path}/${record.id}`), 401);
      expectError(await sut.http().get(path).query({ page: 0, nickname: 'x' }), 401);
      expect(await countRows(sut, resource, team.teamId)).toBe(before);
      expect((await api.get(sut, team, record.id)).body).toEqual({ data: record });
    });
  });

  describe('ids', () => {
    it(`answers 404 "${notFound}" for a UUID of no record on GET, PUT and DELETE`, async () => {
      const before = await countRows(sut, resource, team.teamId);
      expect(expectError(await api.get(sut, team, UNKNOWN_ID), 404)).toBe(notFound);
      expect(expectError(await api.put(sut, team, UNKNOWN_ID, {}), 404)).toBe(notFound);
      expect(expectError(await api.remove(sut, team, UNKNOWN_ID), 404)).toBe(notFound);
      expect(await countRows(sut, resource, team.teamId)).toBe(before);
    });

    it.each(NOT_UUIDS)(`answers 400 "${idParam} must be a UUID" for the id %p on GET, PUT and DELETE`, async (id) => {
      expect(expectError(await api.get(sut, team, id), 400)).toBe(`${idParam} must be a UUID`);
      expect(expectError(await api.put(sut, team, id, {}), 400)).toBe(`${idParam} must be a UUID`);
      expect(expectError(await api.remove(sut, team, id), 400)).toBe(`${idParam} must be a UUID`);
    });

    it('reads a record by its id in upper case', async () => {
      const record = await create();
      expect((await api.get(sut, team, record.id.toUpperCase())).body).toEqual({ data: record });
    });
  });

  describe("another team's record", () => {
    it('is answered exactly as a missing one on GET, PUT and DELETE, and stays as it was', async () => {
      const owner = await sut.createTeam('Owner');
      const intruder = await sut.createTeam('Intruder');
      const record = await create(owner);
      expect(expectError(await api.get(sut, intruder, record.id), 404)).toBe(notFound);
      expect(expectError(await api.put(sut, intruder, record.id, {}), 404)).toBe(notFound);
      expect(expectError(await api.remove(sut, intruder, record.id), 404)).toBe(notFound);
      expect((await api.get(sut, owner, record.id)).body).toEqual({ data: record });
    });

    it('is never listed; each team sees its own records only', async () => {
      const owner = await sut.createTeam('Owner');
      const intruder = await sut.createTeam('Intruder');
      const record = await create(owner);
      const nothing = { data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } };
      expect((await api.list(sut, intruder)).body).toEqual(nothing);
      const own = await create(intruder);
      expect(idsOf(await api.list(sut, intruder))).toEqual([own.id]);
      expect(idsOf(await api.list(sut, owner))).toEqual([record.id]);
    });

    it('refuses teamId in a body: nothing is made for the other team, and the record keeps its team', async () => {
      const other = await sut.createTeam('Other');
      const record = await create();
      const body = { ...(await newBody(sut, team, resource)), teamId: other.teamId };
      expect(expectError(await api.post(sut, team, body), 400)).toBe('property teamId should not exist');
      const put = await api.put(sut, team, record.id, { teamId: other.teamId });
      expect(expectError(put, 400)).toBe('property teamId should not exist');
      const claim = await api.put(sut, other, record.id, { teamId: other.teamId });
      expect(expectError(claim, 400)).toBe('property teamId should not exist');
      expect(await countRows(sut, resource, other.teamId)).toBe(0);
      expect((await api.get(sut, team, record.id)).body).toEqual({ data: record });
    });
  });

  describe('unknown and output-only properties', () => {
    /** Every field of the answer that the body of `operation` does not take (`id`, `createdAt`, `fullAddress`, …). */
    const outputOnly = (record: RecordBody, operation: 'create' | 'update'): string[] => {
      const input = Object.keys(bodySchemaOf(sut, resource, operation).properties ?? {});
      return Object.keys(record).filter((field) => !input.includes(field));
    };

    it('refuses them on POST with "property <name> should not exist" and stores nothing', async () => {
      const record = await create();
      const fields = [...outputOnly(record, 'create'), ...UNKNOWN];
      expect(fields).toEqual(expect.arrayContaining(['id', 'teamId', 'createdAt', 'updatedAt']));
      const before = await countRows(sut, resource, team.teamId);
      for (const field of fields) {
        const body = { ...(await newBody(sut, team, resource)), [field]: record[field] ?? 'x' };
        expect(expectFieldError(await api.post(sut, team, body), field)).toBe(`property ${field} should not exist`);
      }
      expect(await countRows(sut, resource, team.teamId)).toBe(before);
    });

    it('refuses them on PUT and changes nothing', async () => {
      const record = await create();
      const fields = [...outputOnly(record, 'update'), ...UNKNOWN];
      expect(fields).toEqual(expect.arrayContaining(['id', 'teamId', 'createdAt', 'updatedAt']));
      // Beside a valid change, which must not be applied either.
      const change = await newBody(sut, team, resource);
      for (const field of fields) {
        const response = await api.put(sut, team, record.id, { ...change, [field]: record[field] ?? 'x' });
        expect(expectFieldError(response, field)).toBe(`property ${field} should not exist`);
      }
      expect((await api.get(sut, team, record.id)).body).toEqual({ data: record });
    });
  });

  describe('lists', () => {
    let pageTeam: Team;
    let expected: string[];
    beforeAll(async () => {
      pageTeam = await sut.createTeam('Paging team');
      const made: RecordBody[] = [];
      for (let i = 0; i < 5; i += 1) made.push(await create(pageTeam));
      // Creation order reversed by hand, and three equal timestamps that only the id can order, stably across pages.
      const setCreatedAt = (at: string, records: RecordBody[]) =>
        sut.sql(`UPDATE ${resource.table} SET created_at = $1 WHERE id = ANY($2::uuid[])`, [
          at,
          records.map((record) => record.id),
        ]);
      await setCreatedAt('2030-01-03T00:00:00Z', [made[0]]);
      await setCreatedAt('2030-01-02T00:00:00Z', made.slice(1, 4));
      await setCreatedAt('2030-01-01T00:00:00Z', [made[4]]);
      const tied = made
        .slice(1, 4)
        .map((record) => record.id)
        .sort()
        .reverse();
      expected = [made[0].id, ...tied, made[4].id];
    });

    it('pages newest first, ties by id descending, stably, with the true totals', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => api.list(sut, pageTeam, { page, pageSize: 2 })));
      expect(pages.flatMap(idsOf)).toEqual(expected);
      expect(pages.map((page) => page.body.pagination)).toEqual(
        [1, 2, 3].map((page) => ({ total: 5, page, pageSize: 2, pageCount: 3 })),
      );
      const whole = await api.list(sut, pageTeam);
      expect(whole.body.pagination).toEqual({ total: 5, page: 1, pageSize: 20, pageCount: 1 });
      expect(idsOf(whole)).toEqual(expected);
      expect(whole.headers.etag).toBeUndefined();
      const past = await api.list(sut, pageTeam, { page: 4, pageSize: 2 });
      expect(past.body).toEqual({ data: [], pagination: { total: 5, page: 4, pageSize: 2, pageCount: 3 } });
    });

    it('lists each record exactly as GET one answers it', async () => {
      const listed = (await api.list(sut, pageTeam)).body.data as RecordBody[];
      for (const record of listed) expect((await api.get(sut, pageTeam, record.id)).body).toEqual({ data: record });
    });

    it('accepts pageSize 1 and 50 and refuses out-of-range or non-integer paging, naming the parameter', async () => {
      expect(idsOf(await api.list(sut, pageTeam, { pageSize: 1 }))).toEqual(expected.slice(0, 1));
      expect(idsOf(await api.list(sut, pageTeam, { pageSize: 50 }))).toEqual(expected);
      expect((await api.list(sut, pageTeam, { pageSize: 1 })).body.pagination.pageCount).toBe(5);
      expect((await api.list(sut, pageTeam, { pageSize: 5 })).body.pagination.pageCount).toBe(1);
      for (const [param, value] of [
        ['pageSize', 51],
        ['pageSize', 0],
        ['pageSize', 'ten'],
        ['pageSize', '2x'],
        ['page', 0],
        ['page', -1],
        ['page', 'abc'],
        ['page', 'two'],
        ['page', '1.5'],
      ] as const) {
        expectFieldError(await api.list(sut, pageTeam, { [param]: value }), param);
      }
    });

    it('names the paging rule in the error text', async () => {
      const error = async (query: Record<string, string | number>, param: string) =>
        expectFieldError(await api.list(sut, pageTeam, query), param);
      expect(await error({ pageSize: 51 }, 'pageSize')).toBe('pageSize must not be greater than 50');
      expect(await error({ page: 0 }, 'page')).toBe('page must not be less than 1');
      expect(await error({ page: -1 }, 'page')).toBe('page must not be less than 1');
      expect(await error({ page: 'abc' }, 'page')).toBe('page must be an integer number');
      expect(await error({ pageSize: 1.5 }, 'pageSize')).toBe('pageSize must be an integer number');
    });

    it('treats an empty or blank search as no filter, accepts 200 characters and refuses 201', async () => {
      for (const search of ['', '   ']) expect(idsOf(await api.list(sut, pageTeam, { search }))).toEqual(expected);
      const none = await api.list(sut, pageTeam, { search: text(200) });
      expect(none.body).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
      expect(expectFieldError(await api.list(sut, pageTeam, { search: text(201) }), 'search')).toBe(
        'search must be shorter than or equal to 200 characters',
      );
      expectFieldError(await api.list(sut, pageTeam, { search: 'a\u001fb' }), 'search');
    });

    it('refuses every parameter it does not document, record fields that are not filters included', async () => {
      const documented = listParametersOf(sut, resource);
      const fields = Object.keys(bodySchemaOf(sut, resource, 'create').properties ?? {});
      const undocumented = [...fields, 'teamId', 'id', 'limit', ...UNKNOWN].filter(
        (name) => !documented.includes(name),
      );
      expect(undocumented).toEqual(expect.arrayContaining(['teamId', 'id', 'limit', 'nickname']));
      for (const name of undocumented) {
        const response = await api.list(sut, pageTeam, { [name]: UNKNOWN_ID });
        expect(expectError(response, 400)).toBe(`query parameter ${name} is not allowed`);
      }
    });
  });

  describe('sort and updatedSince', () => {
    it('orders by each sort, ties by id in the same direction, and keeps records changed since a time', async () => {
      const sortTeam = await sut.createTeam('Sort team');
      const made: RecordBody[] = [];
      for (let i = 0; i < 4; i++) made.push(await create(sortTeam));
      await sut.sql(`UPDATE ${resource.table} SET created_at = $2 WHERE team_id = $1`, [
        sortTeam.teamId,
        '2030-01-01T00:00:00Z',
      ]);
      const ids = async (query: Record<string, string>): Promise<string[]> =>
        idsOf(await api.list(sut, sortTeam, query));
      const byId = made.map((record) => record.id).sort();
      expect(await ids({ sort: 'createdAt' })).toEqual(byId);
      expect(await ids({ sort: '-createdAt' })).toEqual([...byId].reverse());

      const touched = await api.put(sut, sortTeam, made[0].id, {});
      expect(touched.status).toBe(200);
      expect((await ids({ sort: '-updatedAt' }))[0]).toBe(made[0].id);
      expect((await ids({ sort: 'updatedAt' })).at(-1)).toBe(made[0].id);
      const since = await api.list(sut, sortTeam, { updatedSince: touched.body.data.updatedAt as string });
      expect(idsOf(since)).toEqual([made[0].id]);
      expect(since.body.pagination.total).toBe(1);
    });

    it('refuses an unknown sort or a malformed updatedSince with 400 naming the parameter', async () => {
      for (const sort of ['name', 'companyName', 'id']) {
        expect(expectError(await api.list(sut, team, { sort }), 400)).toMatch(/^sort /);
      }
      for (const updatedSince of ['yesterday', '2027-02-31']) {
        expect(expectError(await api.list(sut, team, { updatedSince }), 400)).toMatch(/^updatedSince /);
      }
    });
  });

  describe('PUT', () => {
    /** The create body's plain text fields (no format, no enum), with their documented limit and whether required. */
    const textFields = (): { field: string; max: number; required: boolean }[] => {
      const schema = bodySchemaOf(sut, resource, 'create');
      return Object.entries(schema.properties ?? {}).flatMap(([field, property]) =>
        property.type === 'string' && !property.format && !property.enum && !property.allOf && !property.$ref
          ? [{ field, max: property.maxLength ?? 0, required: (schema.required ?? []).includes(field) }]
          : [],
      );
    };

    it('accepts each text field at its limit and refuses one more, naming the rule and changing nothing', async () => {
      const fields = textFields();
      expect(fields.length).toBeGreaterThan(0);
      for (const { field, max } of fields) {
        expect({ field, max: max > 0 }).toEqual({ field, max: true });
        const record = await create();
        const atLimit = await api.put(sut, team, record.id, { [field]: text(max) });
        expect(atLimit.status).toBe(200);
        const over = await api.put(sut, team, record.id, { [field]: text(max + 1) });
        expect(expectFieldError(over, field)).toBe(`${field} must be shorter than or equal to ${max} characters`);
        expect((await api.get(sut, team, record.id)).body).toEqual(atLimit.body);
      }
    });

    it('refuses null, "" and blank for each required text field, and changes nothing', async () => {
      const record = await create();
      // Beside valid values of the other fields, which must not be applied either.
      const change = await newBody(sut, team, resource);
      for (const { field } of textFields().filter((candidate) => candidate.required)) {
        for (const value of [null, '', '   ']) {
          expectFieldError(await api.put(sut, team, record.id, { ...change, [field]: value }), field);
        }
      }
      expect((await api.get(sut, team, record.id)).body).toEqual({ data: record });
    });

    it('accepts an empty body: nothing changes but updatedAt, which moves forward', async () => {
      const record = await create();
      const response = await api.put(sut, team, record.id, {});
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...record, updatedAt: response.body.data.updatedAt });
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(record.updatedAt));
      expect((await api.get(sut, team, record.id)).body).toEqual(response.body);
    });
  });

  describe('DELETE', () => {
    it('answers 204 with no body; then GET and a second DELETE are 404 and the list total is one less', async () => {
      const record = await create();
      const before = (await api.list(sut, team)).body.pagination.total as number;
      const deleted = await api.remove(sut, team, record.id);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(expectError(await api.get(sut, team, record.id), 404)).toBe(notFound);
      expect((await api.list(sut, team)).body.pagination.total).toBe(before - 1);
      expect(idsOf(await api.list(sut, team, { pageSize: 50 }))).not.toContain(record.id);
      expect(expectError(await api.remove(sut, team, record.id), 404)).toBe(notFound);
    });

    it('answers an Idempotency-Key retry with the stored 204', async () => {
      const record = await create();
      const send = () => request('delete', record.id, team, { 'Idempotency-Key': `delete-${record.id}` });
      expect((await send()).status).toBe(204);
      const replay = await send();
      expect(replay.status).toBe(204);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    });
  });

  describe('ETags and preconditions', () => {
    it('POST, GET one and PUT carry one strong ETag per representation; If-None-Match answers 304', async () => {
      const created = await api.post(sut, team, await newBody(sut, team, resource));
      expect(created.status).toBe(201);
      const tag = created.headers.etag;
      expect(tag).toMatch(/^"[\w-]{27}"$/);
      const id = created.body.data.id as string;
      expect((await api.get(sut, team, id)).headers.etag).toBe(tag);
      const notModified = await request('get', id, team, { 'If-None-Match': tag });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      const updated = await api.put(sut, team, id, {});
      expect(updated.headers.etag).toMatch(/^"[\w-]{27}"$/);
      expect(updated.headers.etag).not.toBe(tag);
      const changed = await request('get', id, team, { 'If-None-Match': tag });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).toBe(updated.headers.etag);
    });

    it('answers a stale If-Match with 412 before validating the body, and changes nothing', async () => {
      const record = await create();
      const tag = (await api.get(sut, team, record.id)).headers.etag;
      const updated = await api.put(sut, team, record.id, {});
      const stale = await request('put', record.id, team, { 'If-Match': tag }).send({ nickname: 'x' });
      expectError(stale, 412);
      expectError(await request('put', record.id, team, { 'If-Match': '"stale"' }).send({}), 412);
      expectError(await request('delete', record.id, team, { 'If-Match': tag }), 412);
      expect((await api.get(sut, team, record.id)).body).toEqual(updated.body);
      const current = await request('put', record.id, team, { 'If-Match': updated.headers.etag }).send({});
      expect(current.status).toBe(200);
    });

    it('answers 404 before 412, and deletes with If-Match "*" or the current ETag', async () => {
      expectError(await request('put', UNKNOWN_ID, team, { 'If-Match': '"stale"' }).send({ nickname: 'x' }), 404);
      const first = await create();
      expect((await request('delete', first.id, team, { 'If-Match': '*' })).status).toBe(204);
      const second = await create();
      const tag = (await api.get(sut, team, second.id)).headers.etag;
      expect((await request('delete', second.id, team, { 'If-Match': tag })).status).toBe(204);
    });
  });

  if (resource.eventType) {
    const type = resource.eventType;
    it(`announces ${type}.created, .updated and .deleted, each once, with the record as GET one shows it`, async () => {
      const eventsTeam = await sut.createTeam('Events team');
      const record = await create(eventsTeam);
      const updated = await api.put(sut, eventsTeam, record.id, {});
      expect((await api.remove(sut, eventsTeam, record.id)).status).toBe(204);
      const feed = await sut
        .http()
        .get('/v1/events')
        .query({ types: `${type}.created,${type}.updated,${type}.deleted`, limit: 100 })
        .set(...bearer(eventsTeam));
      const events = feed.body.data as EventBody[];
      expect(events.map((event) => event.type)).toEqual([`${type}.created`, `${type}.updated`, `${type}.deleted`]);
      expect(events[0].data).toEqual({ object: record });
      expect(events[1].data).toEqual({ object: updated.body.data, previousAttributes: {} });
      expect(events[2].data).toEqual({ object: { id: record.id } });
      for (const event of events) {
        expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
        expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'data']);
      }
    });
  }
});
