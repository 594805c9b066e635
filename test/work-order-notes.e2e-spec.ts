import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EventBody } from '@app/common';
import { ApiKeysService } from '../apps/api/src/api-keys/index.js';
import { EventsStore } from '../apps/api/src/events/index.js';
import { createUnit, createWorkOrder } from './factories/work-orders.js';
import { expectError, expectFieldError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// Notes on work orders (CONTRACT "Notes on work orders"): what only HTTP shows — statuses, Location, ETags and
// preconditions under a nested path, idempotent replays, validation texts, events, the 404s that tell a missing
// work order from a missing note, and another team seeing nothing. The limit's concurrency is the medium spec's.

const MISSING = '00000000-0000-4000-8000-000000000000';

interface Note {
  id: string;
  teamId: string;
  workOrderId: string;
  text: string;
  authorName: string | null;
  createdBy: { type: string; id: string; name: string | null };
  attachmentIds: string[];
  createdAt: string;
  updatedAt: string;
}

describe('work order notes', () => {
  let sut: TestApp;
  let team: Team & { apiKeyId: string };
  let other: Team;
  let workOrderId: string;

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_PRIVATE: true } });
    team = await sut.createTeam('Notes team');
    other = await sut.createTeam('Other team');
    workOrderId = await newWorkOrder();
  });
  afterAll(() => sut.close());

  async function newWorkOrder(who: Team = team): Promise<string> {
    return (await createWorkOrder(sut, who, (await createUnit(sut, who)).id)).id;
  }
  const notesOf = (id: string) => `/v1/work-orders/${id}/notes`;
  const call = (who: Team = team) => ({
    post: (path: string, body: object, headers: Record<string, string> = {}) =>
      sut
        .http()
        .post(path)
        .set(...bearer(who))
        .set(headers)
        .send(body),
    put: (path: string, body: object, headers: Record<string, string> = {}) =>
      sut
        .http()
        .put(path)
        .set(...bearer(who))
        .set(headers)
        .send(body),
    get: (path: string, headers: Record<string, string> = {}) =>
      sut
        .http()
        .get(path)
        .set(...bearer(who))
        .set(headers),
    delete: (path: string, headers: Record<string, string> = {}) =>
      sut
        .http()
        .delete(path)
        .set(...bearer(who))
        .set(headers),
  });
  async function addNote(id = workOrderId, body: object = { text: 'Tenant called about the tap' }): Promise<Note> {
    const response = await call().post(notesOf(id), body);
    expect(response.status).toBe(201);
    return (response.body as { data: Note }).data;
  }
  const idsOf = (body: unknown): string[] => (body as { data: Note[] }).data.map((note) => note.id);
  async function eventsAfter(after: string | undefined, types: string): Promise<EventBody[]> {
    const query = `?limit=100&types=${types}${after ? `&after=${after}` : ''}`;
    return ((await call().get(`/v1/events${query}`).expect(200)).body as { data: EventBody[] }).data;
  }
  async function lastEventId(): Promise<string | undefined> {
    const feed = await call().get('/v1/events?limit=100').expect(200);
    const page = (feed.body as { data: EventBody[]; pagination: { hasMore: boolean } }).data;
    expect((feed.body as { pagination: { hasMore: boolean } }).pagination.hasMore).toBe(false);
    return page.at(-1)?.id;
  }

  describe('create', () => {
    it('answers 201 with the note, its Location and ETag, and createdBy naming the key', async () => {
      const response = await call().post(notesOf(workOrderId), {
        text: '  Contractor found a worn washer  ',
        authorName: '  Sam Reed (contractor)  ',
      });
      expect(response.status).toBe(201);
      const note = (response.body as { data: Note }).data;
      expect(Object.keys(note).sort()).toEqual(
        [
          'attachmentIds',
          'authorName',
          'createdAt',
          'createdBy',
          'id',
          'teamId',
          'text',
          'updatedAt',
          'workOrderId',
        ].sort(),
      );
      expect(note).toMatchObject({
        teamId: team.teamId,
        workOrderId,
        text: 'Contractor found a worn washer',
        authorName: 'Sam Reed (contractor)',
        createdBy: { type: 'api_key', id: team.apiKeyId, name: 'default' },
        attachmentIds: [],
      });
      expect(note.id).toMatch(UUID);
      expect(note.createdAt).toMatch(ISO_WITH_MS);
      expect(note.updatedAt).toBe(note.createdAt);
      expect(response.headers.location).toBe(`${notesOf(workOrderId)}/${note.id}`);
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(JSON.stringify(note)).not.toContain(team.apiKey);
    });

    it('names a named key and stores an empty authorName as null', async () => {
      const named = await sut.app.get(ApiKeysService).createKey(team.teamId, 'Front desk');
      const response = await call(named).post(notesOf(workOrderId), { text: 'Called back', authorName: '   ' });
      expect(response.status).toBe(201);
      expect((response.body as { data: Note }).data).toMatchObject({
        authorName: null,
        createdBy: { type: 'api_key', id: named.apiKeyId, name: 'Front desk' },
      });
    });

    it.each([
      [{}, 'text'],
      [{ text: '   ' }, 'text'],
      [{ text: null }, 'text'],
      [{ text: 42 }, 'text'],
      [{ text: 'x'.repeat(10_001) }, 'text'],
      [{ text: 'ok', authorName: 'x'.repeat(161) }, 'authorName'],
      [{ text: 'ok', authorName: 7 }, 'authorName'],
      [{ text: 'ok', createdBy: 'me' }, 'createdBy'],
      [{ text: 'ok', attachmentIds: [] }, 'attachmentIds'],
      [{ text: 'ok', workOrderId: MISSING }, 'workOrderId'],
    ])('refuses %j with a 400 naming %s, and writes nothing', async (body, field) => {
      const before = await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM work_order_notes');
      expectFieldError(await call().post(notesOf(workOrderId), body), field);
      expect(await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM work_order_notes')).toEqual(before);
    });

    it('counts lengths after trimming: 10,000 and 160 characters with spaces around are accepted', async () => {
      const note = await addNote(workOrderId, { text: ` ${'t'.repeat(10_000)} `, authorName: ` ${'a'.repeat(160)} ` });
      expect([note.text.length, note.authorName?.length]).toEqual([10_000, 160]);
    });

    it('answers 404 "Work order not found" for a missing work order and 400 for a malformed id', async () => {
      expect(expectError(await call().post(notesOf(MISSING), { text: 'x' }), 404)).toBe('Work order not found');
      expectFieldError(await call().post(notesOf('not-a-uuid'), { text: 'x' }), 'workOrderId');
    });

    it('refuses the 1,001st note of a work order with 409, and keeps 1,000', async () => {
      const full = await newWorkOrder();
      await sut.sql(
        `INSERT INTO work_order_notes (team_id, work_order_id, text, created_by)
         SELECT $1, $2, 'note ' || n, $3 FROM generate_series(1, 999) n`,
        [team.teamId, full, JSON.stringify({ type: 'api_key', id: team.apiKeyId, name: 'default' })],
      );
      expect((await call().post(notesOf(full), { text: 'the thousandth' })).status).toBe(201);
      const refused = await call().post(notesOf(full), { text: 'one too many' });
      expect(expectError(refused, 409)).toMatch(/1,000 notes/);
      const list = await call()
        .get(`${notesOf(full)}?pageSize=1`)
        .expect(200);
      expect((list.body as { pagination: { total: number } }).pagination.total).toBe(1000);
    });

    it('replays a POST with the same Idempotency-Key: same answer, one note, one event', async () => {
      const id = await newWorkOrder();
      const after = await lastEventId();
      const headers = { 'Idempotency-Key': `note-${id}` };
      const first = await call().post(notesOf(id), { text: 'Once only' }, headers);
      const again = await call().post(notesOf(id), { text: 'Once only' }, headers);
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(idsOf((await call().get(notesOf(id)).expect(200)).body)).toEqual([(first.body as { data: Note }).data.id]);
      expect(await eventsAfter(after, 'work_order_note.created')).toHaveLength(1);
      const different = await call().post(notesOf(id), { text: 'Something else' }, headers);
      expectError(different, 422);
    });
  });

  describe('list', () => {
    let listed: string;
    let written: string[];

    beforeAll(async () => {
      listed = await newWorkOrder();
      written = [];
      for (const text of ['first', 'second', 'third']) written.push((await addNote(listed, { text })).id);
    });

    it('lists oldest first by default, newest first with sort=-createdAt, paged with exact totals', async () => {
      expect(idsOf((await call().get(notesOf(listed)).expect(200)).body)).toEqual(written);
      expect(
        idsOf(
          (
            await call()
              .get(`${notesOf(listed)}?sort=createdAt`)
              .expect(200)
          ).body,
        ),
      ).toEqual(written);
      expect(
        idsOf(
          (
            await call()
              .get(`${notesOf(listed)}?sort=-createdAt`)
              .expect(200)
          ).body,
        ),
      ).toEqual([...written].reverse());
      const second = await call()
        .get(`${notesOf(listed)}?page=2&pageSize=2`)
        .expect(200);
      expect(second.body).toMatchObject({ pagination: { total: 3, page: 2, pageSize: 2, pageCount: 2 } });
      expect(idsOf(second.body)).toEqual([written[2]]);
    });

    it('breaks ties of createdAt by id in the sort direction', async () => {
      const tied = await newWorkOrder();
      for (const text of ['a', 'b', 'c']) await addNote(tied, { text });
      await sut.sql(`UPDATE work_order_notes SET created_at = '2030-01-01T00:00:00Z' WHERE work_order_id = $1`, [tied]);
      const ids = idsOf((await call().get(notesOf(tied)).expect(200)).body);
      expect(ids).toEqual([...ids].sort());
      expect(
        idsOf(
          (
            await call()
              .get(`${notesOf(tied)}?sort=-createdAt`)
              .expect(200)
          ).body,
        ),
      ).toEqual([...ids].reverse());
    });

    it('lists only the work order’s own notes; an empty work order lists none', async () => {
      const empty = await newWorkOrder();
      const response = await call().get(notesOf(empty)).expect(200);
      expect(response.body).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
    });

    it.each([
      ['sort=updatedAt', 'sort'],
      ['sort=-updatedAt', 'sort'],
      ['pageSize=51', 'pageSize'],
      ['page=0', 'page'],
      ['search=tap', 'search'],
      ['updatedSince=2030-01-01', 'updatedSince'],
    ])('refuses ?%s with a 400 naming %s', async (query, field) => {
      const error = expectError(await call().get(`${notesOf(listed)}?${query}`), 400);
      expect(error).toContain(field);
    });

    it('answers 404 "Work order not found" for a missing work order', async () => {
      expect(expectError(await call().get(notesOf(MISSING)), 404)).toBe('Work order not found');
    });
  });

  describe('get, update, delete', () => {
    it('gets a note with an ETag and answers If-None-Match with 304', async () => {
      const note = await addNote();
      const read = await call()
        .get(`${notesOf(workOrderId)}/${note.id}`)
        .expect(200);
      expect((read.body as { data: Note }).data).toEqual(note);
      const etag = read.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await call().get(`${notesOf(workOrderId)}/${note.id}`, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
    });

    it('updates text and authorName partially; null clears authorName and is refused for text', async () => {
      const note = await addNote(workOrderId, { text: 'Before', authorName: 'Jane Doe (tenant)' });
      const path = `${notesOf(workOrderId)}/${note.id}`;
      const renamed = await call().put(path, { authorName: null }).expect(200);
      const updated = (renamed.body as { data: Note }).data;
      expect(updated).toMatchObject({ text: 'Before', authorName: null, createdBy: note.createdBy, id: note.id });
      expect(updated.updatedAt > note.updatedAt).toBe(true);
      expect(updated.createdAt).toBe(note.createdAt);
      const retexted = await call().put(path, { text: '  After  ' }).expect(200);
      expect((retexted.body as { data: Note }).data.text).toBe('After');
      expectFieldError(await call().put(path, { text: null }), 'text');
      expectFieldError(await call().put(path, { text: '' }), 'text');
      expectFieldError(await call().put(path, { authorName: 'x'.repeat(161) }), 'authorName');
      expectFieldError(await call().put(path, { createdBy: null }), 'createdBy');
      const unchanged = await call().put(path, {}).expect(200);
      expect((unchanged.body as { data: Note }).data.text).toBe('After');
    });

    it('deletes a note: 204, then 404; a second delete is 404', async () => {
      const note = await addNote();
      const path = `${notesOf(workOrderId)}/${note.id}`;
      expect((await call().delete(path)).status).toBe(204);
      expect(expectError(await call().get(path), 404)).toBe('Note not found');
      expect(expectError(await call().delete(path), 404)).toBe('Note not found');
    });

    it('answers "Note not found" for a note of another work order and "Work order not found" for a missing one', async () => {
      const note = await addNote();
      const elsewhere = await newWorkOrder();
      for (const method of ['get', 'put', 'delete'] as const) {
        const wrong = `${notesOf(elsewhere)}/${note.id}`;
        const response = method === 'put' ? await call().put(wrong, { text: 'x' }) : await call()[method](wrong);
        expect({ method, error: expectError(response, 404) }).toEqual({ method, error: 'Note not found' });
        const orphan = `${notesOf(MISSING)}/${note.id}`;
        const missing = method === 'put' ? await call().put(orphan, { text: 'x' }) : await call()[method](orphan);
        expect({ method, error: expectError(missing, 404) }).toEqual({ method, error: 'Work order not found' });
      }
      expectFieldError(await call().get(`${notesOf(workOrderId)}/nope`), 'noteId');
      expect(
        (
          await call()
            .get(`${notesOf(workOrderId)}/${note.id}`)
            .expect(200)
        ).body,
      ).toEqual({ data: note });
    });

    it('honours If-Match on PUT and DELETE: 412 on a stale tag before validation, 404 before 412', async () => {
      const note = await addNote();
      const path = `${notesOf(workOrderId)}/${note.id}`;
      const tag = (await call().get(path).expect(200)).headers.etag;
      expectError(await call().put(path, { text: '' }, { 'If-Match': '"stale"' }), 412);
      expectError(await call().delete(path, { 'If-Match': '"stale"' }), 412);
      const updated = await call().put(path, { text: 'Matched' }, { 'If-Match': tag }).expect(200);
      expect(updated.headers.etag).not.toBe(tag);
      expectError(await call().put(path, { text: 'Again' }, { 'If-Match': tag }), 412);
      expect(expectError(await call().put(`${notesOf(MISSING)}/${note.id}`, {}, { 'If-Match': '*' }), 404)).toBe(
        'Work order not found',
      );
      expect(expectError(await call().delete(`${notesOf(workOrderId)}/${MISSING}`, { 'If-Match': '*' }), 404)).toBe(
        'Note not found',
      );
      expect((await call().delete(path, { 'If-Match': updated.headers.etag })).status).toBe(204);
    });

    it('replays a PUT and a DELETE with the same Idempotency-Key', async () => {
      const note = await addNote();
      const path = `${notesOf(workOrderId)}/${note.id}`;
      const put = { 'Idempotency-Key': `put-${note.id}` };
      const first = await call().put(path, { text: 'Edited once' }, put).expect(200);
      const replay = await call().put(path, { text: 'Edited once' }, put).expect(200);
      expect([replay.headers['idempotent-replayed'], replay.body]).toEqual(['true', first.body]);
      const del = { 'Idempotency-Key': `delete-${note.id}` };
      expect((await call().delete(path, del)).status).toBe(204);
      const again = await call().delete(path, del);
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([204, 'true']);
    });
  });

  describe('another team', () => {
    it('sees nothing: 404 on the work order and on its notes, and cannot write to them', async () => {
      const note = await addNote();
      const path = `${notesOf(workOrderId)}/${note.id}`;
      const them = call(other);
      expect(expectError(await them.get(notesOf(workOrderId)), 404)).toBe('Work order not found');
      expect(expectError(await them.post(notesOf(workOrderId), { text: 'x' }), 404)).toBe('Work order not found');
      for (const response of [
        await them.get(path),
        await them.put(path, { text: 'x' }),
        await them.put(path, { text: 'x' }, { 'If-Match': '*' }),
        await them.delete(path),
      ]) {
        expect(expectError(response, 404)).toBe('Work order not found');
      }
      expect((await call().get(path).expect(200)).body).toEqual({ data: note });
      const theirs = await newWorkOrder(other);
      expect(expectError(await them.get(`${notesOf(theirs)}/${note.id}`), 404)).toBe('Note not found');
      expect(expectError(await call().get(`${notesOf(theirs)}/${note.id}`), 404)).toBe('Work order not found');
    });
  });

  describe('events', () => {
    it('records work_order_note.created, .updated with previousAttributes and .deleted with {id}', async () => {
      const after = await lastEventId();
      const note = await addNote(workOrderId, { text: 'Announced', authorName: 'Jane' });
      const path = `${notesOf(workOrderId)}/${note.id}`;
      const updated = (await call().put(path, { text: 'Announced again' }).expect(200)).body as { data: Note };
      expect((await call().delete(path)).status).toBe(204);
      expectFieldError(await call().post(notesOf(workOrderId), { text: '' }), 'text');
      const events = await eventsAfter(
        after,
        'work_order_note.created,work_order_note.updated,work_order_note.deleted',
      );
      expect(events.map((event) => [event.type, event.data])).toEqual([
        ['work_order_note.created', { object: note }],
        ['work_order_note.updated', { object: updated.data, previousAttributes: { text: 'Announced' } }],
        ['work_order_note.deleted', { object: { id: note.id } }],
      ]);
    });

    it('name the work order as the record whose history the change belongs to', async () => {
      const record = jest.spyOn(sut.app.get(EventsStore), 'record');
      try {
        const note = await addNote();
        const path = `${notesOf(workOrderId)}/${note.id}`;
        await call().put(path, { text: 'Edited' }).expect(200);
        expect((await call().delete(path)).status).toBe(204);
        expect(record.mock.calls.map((args) => [args[2], args[5]])).toEqual(
          ['created', 'updated', 'deleted'].map((action) => [
            `work_order_note.${action}`,
            // objectContaining: the history's `actor` rides along in the same context.
            expect.objectContaining({ parent: { record: 'work_order', id: workOrderId } }),
          ]),
        );
      } finally {
        record.mockRestore();
      }
    });

    it('are accepted as webhook endpoint types', async () => {
      const response = await call().post('/v1/webhook-endpoints', {
        url: 'https://127.0.0.1:9/hooks',
        types: ['work_order_note.created', 'work_order_note.deleted'],
      });
      expect(response.status).toBe(201);
    });
  });

  describe('deleting the work order', () => {
    it('deletes its notes, with no note events of their own', async () => {
      const doomed = await newWorkOrder();
      const note = await addNote(doomed);
      const after = await lastEventId();
      expect((await call().delete(`/v1/work-orders/${doomed}`)).status).toBe(204);
      const left = await sut.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM work_order_notes WHERE team_id = $1 AND id = $2',
        [team.teamId, note.id],
      );
      expect(left).toEqual([{ n: 0 }]);
      const events = await eventsAfter(after, 'work_order.deleted,work_order_note.deleted');
      expect(events.map((event) => event.type)).toEqual(['work_order.deleted']);
      expect(expectError(await call().get(`${notesOf(doomed)}/${note.id}`), 404)).toBe('Work order not found');
    });
  });

  it('counts note writes against the writes limit', async () => {
    // One write a minute: the work order's POST takes it, so the note's POST is over the limit.
    const limited = await createTestApp({ config: { RATE_LIMIT_WRITES_PER_MINUTE: 1 } });
    try {
      const key = await limited.createTeam();
      const unit = await createUnit(limited, key);
      const wo = await createWorkOrder(limited, key, unit.id);
      const response = await limited
        .http()
        .post(notesOf(wo.id))
        .set(...bearer(key))
        .send({ text: 'over the limit' });
      expectError(response, 429);
      const read = await limited
        .http()
        .get(notesOf(wo.id))
        .set(...bearer(key));
      expect(read.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
