import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ManualClock, runInTransaction, type EventBody } from '@app/common';
import { EventsCleanup, EventsStore } from '../apps/api/src/events/index.js';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// The events feed over the transactional outbox (CONTRACT "Following changes"): one event per committed write,
// none for a rejected or replayed one, in commit order, exactly once for a reader that follows `next`.

const DAY = 86_400_000;

interface Feed {
  data: EventBody[];
  pagination: { limit: number; next: string | null; hasMore: boolean };
}

describe('events feed', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    team = await sut.createTeam('Events team');
  });
  afterAll(() => sut.close());

  const as = (who: Team) => ({
    post: (path: string, body: object) =>
      sut
        .http()
        .post(path)
        .set(...bearer(who))
        .send(body),
    put: (path: string, body: object) =>
      sut
        .http()
        .put(path)
        .set(...bearer(who))
        .send(body),
    delete: (path: string) =>
      sut
        .http()
        .delete(path)
        .set(...bearer(who)),
    feed: async (query = ''): Promise<Feed> =>
      (
        await sut
          .http()
          .get(`/v1/events${query}`)
          .set(...bearer(who))
          .expect(200)
      ).body as Feed,
  });
  /** The main team's calls (resolved when called: the team exists only after beforeAll). */
  const api = {
    post: (path: string, body: object) => as(team).post(path, body),
    put: (path: string, body: object) => as(team).put(path, body),
    delete: (path: string) => as(team).delete(path),
    feed: (query?: string) => as(team).feed(query),
  };

  /** Every event after `after`, following `next` page by page. */
  async function readAll(who: Team, after?: string, limit = 100): Promise<EventBody[]> {
    const events: EventBody[] = [];
    let cursor = after;
    for (;;) {
      const page = await as(who).feed(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      events.push(...page.data);
      if (page.data.length > 0) cursor = page.pagination.next ?? undefined;
      if (!page.pagination.hasMore) return events;
    }
  }

  async function lastEventId(who: Team = team): Promise<string | undefined> {
    return (await readAll(who)).at(-1)?.id;
  }

  /** `previous`: the fields an update changes, with their old values (derived ones such as fullAddress too). */
  const resources: Array<{
    path: string;
    type: string;
    create: () => Promise<object>;
    change: object;
    previous: Record<string, unknown>;
  }> = [
    {
      path: '/v1/landlords',
      type: 'landlord',
      create: async () => ({ name: 'Harriet Cole' }),
      change: { name: 'H. Cole' },
      previous: { name: 'Harriet Cole' },
    },
    {
      path: '/v1/contractors',
      type: 'contractor',
      create: async () => ({ companyName: 'Brightwater Plumbing Ltd', contactName: 'Sam Reed' }),
      change: { status: 'inactive' },
      previous: { status: 'active' },
    },
    {
      path: '/v1/units',
      type: 'unit',
      create: async () => ({
        addressLine1: '14 Elm Grove',
        city: 'Bristol',
        postcode: 'BS6 6AH',
        country: 'United Kingdom',
      }),
      change: { city: 'Bath' },
      previous: { city: 'Bristol', fullAddress: '14 Elm Grove, Bristol, BS6 6AH, United Kingdom' },
    },
    {
      path: '/v1/tenants',
      type: 'tenant',
      create: async () => ({ firstName: 'Priya', lastName: 'Shah' }),
      change: { lastName: 'Shah-Jones' },
      previous: { lastName: 'Shah' },
    },
    {
      path: '/v1/work-orders',
      type: 'work_order',
      create: async () => {
        const unit = await api
          .post('/v1/units', {
            addressLine1: '2 Mill Lane',
            city: 'Leeds',
            postcode: 'LS1 4AP',
            country: 'United Kingdom',
          })
          .expect(201);
        return { title: 'Leaking tap in kitchen', unitId: (unit.body as { data: { id: string } }).data.id };
      },
      change: { title: 'Dripping tap in kitchen' },
      previous: { title: 'Leaking tap in kitchen' },
    },
  ];

  it.each(resources)(
    '$type: created, updated and deleted, each once, with the record as GET one shows it',
    async (resource) => {
      const body = await resource.create();
      const start = await lastEventId();
      const created = await api.post(resource.path, body).expect(201);
      const record = (created.body as { data: Record<string, unknown> }).data;
      const updated = await api.put(`${resource.path}/${record.id as string}`, resource.change).expect(200);
      const after = (updated.body as { data: Record<string, unknown> }).data;
      await api.delete(`${resource.path}/${record.id as string}`).expect(204);

      const events = await readAll(team, start);
      expect(events.map((event) => event.type)).toEqual([
        `${resource.type}.created`,
        `${resource.type}.updated`,
        `${resource.type}.deleted`,
      ]);
      expect(events[0].data).toEqual({ object: record });
      expect(events[1].data).toEqual({ object: after, previousAttributes: resource.previous });
      for (const [key, value] of Object.entries(resource.previous)) expect(record[key]).toEqual(value);
      expect(events[2].data).toEqual({ object: { id: record.id } });
      for (const event of events) {
        expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
        expect(event.createdAt).toBe(new Date(clock.now()).toISOString());
        expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'data']);
      }
    },
  );

  it('writes no event for a rejected, failed-precondition or replayed request', async () => {
    const start = await lastEventId();
    await api.post('/v1/landlords', { name: '' }).expect(400);
    await api.put('/v1/landlords/00000000-0000-4000-8000-000000000000', { name: 'Nobody' }).expect(404);
    const landlord = await api
      .post('/v1/landlords', { name: 'Once Only' })
      .set('Idempotency-Key', 'evt-once')
      .expect(201);
    const id = (landlord.body as { data: { id: string } }).data.id;
    await api
      .post('/v1/landlords', { name: 'Once Only' })
      .set('Idempotency-Key', 'evt-once')
      .expect(201)
      .expect('Idempotent-Replayed', 'true');
    await api.put(`/v1/landlords/${id}`, { name: 'Stale' }).set('If-Match', '"stale"').expect(412);
    await api.put(`/v1/landlords/${id}`, { name: 42 }).expect(400);
    const events = await readAll(team, start);
    expect(events.map((event) => `${event.type} ${(event.data.object as { id: string }).id}`)).toEqual([
      `landlord.created ${id}`,
    ]);
  });

  it('gives an embedding record no event when the embedded one changes (its ETag changes instead)', async () => {
    const unit = await api
      .post('/v1/units', { addressLine1: '9 Quay St', city: 'Bristol', postcode: 'BS1 4DJ', country: 'United Kingdom' })
      .expect(201);
    const unitId = (unit.body as { data: { id: string } }).data.id;
    const tenant = await api
      .post('/v1/tenants', { firstName: 'Ola', lastName: 'Nowak', unitIds: [unitId] })
      .expect(201);
    const tenantId = (tenant.body as { data: { id: string } }).data.id;
    await api.post('/v1/work-orders', { title: 'Boiler pressure low', unitId, tenantId }).expect(201);
    const start = await lastEventId();
    await api.put(`/v1/tenants/${tenantId}`, { lastName: 'Nowak-Smith' }).expect(200);
    expect((await readAll(team, start)).map((event) => event.type)).toEqual(['tenant.updated']);
  });

  it('pages with limit, next and hasMore; an empty page keeps the cursor; types filters', async () => {
    const start = await lastEventId();
    for (const name of ['P1', 'P2', 'P3']) await api.post('/v1/landlords', { name }).expect(201);
    const first = await api.feed(`?after=${start}&limit=2`);
    expect(first.data.map((event) => (event.data.object as { name: string }).name)).toEqual(['P1', 'P2']);
    expect(first.pagination).toEqual({ limit: 2, next: first.data[1].id, hasMore: true });
    const second = await api.feed(`?after=${first.pagination.next}&limit=2`);
    expect(second.data).toHaveLength(1);
    expect(second.pagination.hasMore).toBe(false);
    const empty = await api.feed(`?after=${second.pagination.next}`);
    expect(empty).toEqual({ data: [], pagination: { limit: 50, next: second.pagination.next, hasMore: false } });

    const onlyDeletes = await api.feed(`?types=landlord.deleted,unit.deleted&limit=100`);
    expect(onlyDeletes.data.length).toBeGreaterThan(0);
    expect(new Set(onlyDeletes.data.map((event) => event.type))).toEqual(new Set(['landlord.deleted', 'unit.deleted']));
    // An empty list of types is no filter, as an omitted one: never a feed that looks empty.
    const all = await api.feed('?limit=100');
    expect(all.data.length).toBeGreaterThan(onlyDeletes.data.length);
    for (const empty of ['', ',', ' , ']) {
      expect(await api.feed(`?types=${encodeURIComponent(empty)}&limit=100`)).toEqual(all);
    }
  });

  it('starts from the oldest event without after, and answers an empty feed with next null', async () => {
    const fresh = await sut.createTeam('Empty feed team');
    expect(await as(fresh).feed()).toEqual({ data: [], pagination: { limit: 50, next: null, hasMore: false } });
    await as(fresh).post('/v1/landlords', { name: 'First' }).expect(201);
    const page = await as(fresh).feed();
    expect(page.data.map((event) => event.type)).toEqual(['landlord.created']);
  });

  it.each([
    ['?after=evt_nope', 'after must be the id of an event of this feed (evt_ and 32 hex digits)'],
    ['?limit=0', 'limit must not be less than 1'],
    ['?limit=101', 'limit must not be greater than 100'],
    ['?types=landlord.renamed', 'each value in types must be one of the following values'],
    ['?page=2', 'query parameter page is not allowed'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await sut
      .http()
      .get(`/v1/events${query}`)
      .set(...bearer(team));
    expectError(response, 400);
    expect((response.body as { error: string }).error).toContain(message);
  });

  it('shows a team none of another team’s events, and refuses its cursor', async () => {
    const other = await sut.createTeam('Other events team');
    await as(other).post('/v1/landlords', { name: 'Theirs' }).expect(201);
    const theirs = await readAll(other);
    const ours = await readAll(team);
    expect(theirs.map((event) => (event.data.object as { name: string }).name)).toEqual(['Theirs']);
    expect(ours.map((event) => event.id)).not.toContain(theirs[0].id);
    const response = await sut
      .http()
      .get(`/v1/events?after=${ours[0].id}`)
      .set(...bearer(other));
    expectError(response, 400);
  });

  it('keeps events 30 days: the cleanup deletes older ones and an expired cursor is 410', async () => {
    const keeper = await sut.createTeam('Retention team');
    await as(keeper).post('/v1/landlords', { name: 'Old news' }).expect(201);
    const [old] = await readAll(keeper);
    clock.advance(31 * DAY);
    await as(keeper).post('/v1/landlords', { name: 'Fresh news' }).expect(201);
    await as(keeper).post('/v1/landlords', { name: 'Fresher news' }).expect(201);
    const [, fresh] = await readAll(keeper);
    await sut.app.get(EventsCleanup).run();

    expect((await readAll(keeper)).map((event) => (event.data.object as { name: string }).name)).toEqual([
      'Fresh news',
      'Fresher news',
    ]);
    const gone = await sut
      .http()
      .get(`/v1/events?after=${old.id}`)
      .set(...bearer(keeper));
    expectError(gone, 410);
    expect(gone.body).toEqual({
      error: 'after names an event older than the 30-day retention; start again without after',
    });
    expect(
      (await as(keeper).feed(`?after=${fresh.id}`)).data.map((event) => (event.data.object as { name: string }).name),
    ).toEqual(['Fresher news']);
  });

  it('never skips a transaction that began earlier but committed later (two real transactions interleaved)', async () => {
    const db = sut.app.get(DataSource);
    const store = sut.app.get(EventsStore);
    const reader = await sut.createTeam('Interleaved team');
    const readerApi = as(reader);
    /** A promise and its resolver: the test decides when each transaction moves on. */
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const earlyMayRecord = gate();
    const earlyWrote = gate();

    // The early transaction begins and writes its record first, then waits before recording its event.
    const early = runInTransaction(db, async (manager) => {
      await manager.query(`INSERT INTO landlords (team_id, id, name) VALUES ($1, gen_random_uuid(), 'Early')`, [
        reader.teamId,
      ]);
      earlyWrote.open();
      await earlyMayRecord.opened;
      await store.record(manager, reader.teamId, 'landlord.created', { name: 'Early' });
    });
    await earlyWrote.opened;
    // The late transaction begins after it, records and commits first.
    await runInTransaction(db, (manager) => store.record(manager, reader.teamId, 'landlord.created', { name: 'Late' }));

    // A reader reads now: it sees the late event only, and moves its cursor past it.
    const firstRead = await readerApi.feed();
    expect(firstRead.data.map((event) => (event.data.object as { name: string }).name)).toEqual(['Late']);

    // The early transaction commits now; the reader, following next, still gets its event, once.
    earlyMayRecord.open();
    await early;
    const secondRead = await readerApi.feed(`?after=${firstRead.pagination.next}`);
    expect(secondRead.data.map((event) => (event.data.object as { name: string }).name)).toEqual(['Early']);
    expect((await readerApi.feed(`?after=${secondRead.pagination.next}`)).data).toEqual([]);

    // While a transaction holds the team's next number, a second one waits for it: numbers follow commit order.
    const holding = gate();
    const holderRecorded = gate();
    const holder = runInTransaction(db, async (manager) => {
      await store.record(manager, reader.teamId, 'landlord.created', { name: 'Holder' });
      holderRecorded.open();
      await holding.opened;
    });
    await holderRecorded.opened;
    let waiterDone = false;
    const waiter = runInTransaction(db, (manager) =>
      store.record(manager, reader.teamId, 'landlord.created', { name: 'Waiter' }),
    ).then(() => (waiterDone = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(waiterDone).toBe(false);
    expect((await readerApi.feed(`?after=${secondRead.pagination.next}`)).data).toEqual([]);
    holding.open();
    await holder;
    await waiter;
    const last = await readerApi.feed(`?after=${secondRead.pagination.next}`);
    expect(last.data.map((event) => (event.data.object as { name: string }).name)).toEqual(['Holder', 'Waiter']);
  });
});
