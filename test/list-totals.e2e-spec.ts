import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type Team,
  type TestApp,
} from './support/test-app.js';
import { until } from './support/until.js';
import { WorkOrdersRepository } from '../apps/api/src/work-orders/work-orders.repository.js';

// A list's exact total and its page are read only when the team changed since the instance last read the same
// ones (the team's change version, read in the page's statement: RememberedByVersion, docs/performance.md). These
// tests make every kind of change between two identical lists — through the instance that remembers and through
// another one — and compare the total with a real COUNT(*) and the page with the change; and, under concurrent
// writes, check that every single answer's total matches its own page.

jest.setTimeout(60_000);

const UNIT = { addressLine1: '1 Leak Lane', city: 'Leeds', country: 'United Kingdom', postcode: 'LS1 1AA' };

describe('list totals by change version', () => {
  let databaseUrl: string;
  let a: TestApp;
  let b: TestApp;
  let team: Team;
  let unitId: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    a = await createTestApp({ databaseUrl });
    b = await createTestApp({ databaseUrl });
    team = await a.createTeam();
    const unit = await a
      .http()
      .post('/v1/units')
      .set(...bearer(team))
      .send(UNIT);
    expect(unit.status).toBe(201);
    unitId = unit.body.data.id;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  const total = async (via: TestApp, path: string, query: Record<string, string | number>): Promise<number> => {
    const response = await via
      .http()
      .get(path)
      .query(query)
      .set(...bearer(team));
    expect(response.status).toBe(200);
    return response.body.pagination.total as number;
  };
  const count = async (sql: string): Promise<number> => {
    const [row] = await a.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [team.teamId]);
    return row.n;
  };
  const send = (via: TestApp, method: 'post' | 'put' | 'delete', path: string, body?: object) =>
    via
      .http()
      [method](path)
      .set(...bearer(team))
      .send(body);

  it('a work order search total follows creates, updates and deletes made through either instance', async () => {
    const matching = `work_orders WHERE team_id = $1 AND title ILIKE '%leak%'`;
    const search = { search: 'leak', pageSize: 1 };
    expect(await total(a, '/v1/work-orders', search)).toBe(0);

    const created = await send(a, 'post', '/v1/work-orders', { title: 'Leak under sink', unitId });
    expect(created.status).toBe(201);
    expect(await total(a, '/v1/work-orders', search)).toBe(1);
    expect(await total(b, '/v1/work-orders', search)).toBe(1);

    // Through b, while a remembers 1 at the version before.
    const second = await send(b, 'post', '/v1/work-orders', { title: 'Roof leak', unitId });
    expect(second.status).toBe(201);
    expect(await total(a, '/v1/work-orders', search)).toBe(2);

    const renamed = await send(b, 'put', `/v1/work-orders/${second.body.data.id}`, { title: 'Roof tiles' });
    expect(renamed.status).toBe(200);
    expect(await total(a, '/v1/work-orders', search)).toBe(1);
    expect(await total(a, '/v1/work-orders', { ...search, status: 'reported' })).toBe(1);

    const moved = await send(a, 'put', `/v1/work-orders/${created.body.data.id}`, { status: 'in_progress' });
    expect(moved.status).toBe(200);
    expect(await total(b, '/v1/work-orders', { ...search, status: 'reported' })).toBe(0);
    expect(await total(a, '/v1/work-orders', { ...search, status: 'reported' })).toBe(0);

    expect((await send(b, 'delete', `/v1/work-orders/${created.body.data.id}`)).status).toBe(204);
    expect(await total(a, '/v1/work-orders', search)).toBe(0);
    expect(await count(matching)).toBe(0);
  });

  it('a tenant search by linked address follows a link made on the unit side and a unit deleted', async () => {
    const tenant = await send(a, 'post', '/v1/tenants', { firstName: 'Sam', lastName: 'Brook' });
    expect(tenant.status).toBe(201);
    const street = await send(a, 'post', '/v1/units', { ...UNIT, addressLine1: '9 Station Road' });
    expect(street.status).toBe(201);
    const search = { search: 'Station Road', pageSize: 1 };
    expect(await total(a, '/v1/tenants', search)).toBe(0);

    const linked = await send(b, 'put', `/v1/tenants/${tenant.body.data.id}`, { unitIds: [street.body.data.id] });
    expect(linked.status).toBe(200);
    expect(await total(a, '/v1/tenants', search)).toBe(1);

    expect((await send(b, 'delete', `/v1/units/${street.body.data.id}`)).status).toBe(204);
    expect(await total(a, '/v1/tenants', search)).toBe(0);
  });

  it('landlords, contractors and units: totals after creates and deletes, with and without filters', async () => {
    const cases = [
      { path: '/v1/landlords', body: { name: 'Harbour Lettings' }, search: 'Harbour' },
      {
        path: '/v1/contractors',
        body: { companyName: 'Harbour Plumbing', contactName: 'Ann Reed' },
        search: 'Harbour',
      },
      { path: '/v1/units', body: { ...UNIT, addressLine1: '3 Harbour Walk' }, search: 'Harbour' },
    ];
    for (const { path, body, search } of cases) {
      const before = await total(a, path, { pageSize: 1 });
      const created = await send(b, 'post', path, body);
      expect({ path, status: created.status }).toEqual({ path, status: 201 });
      expect({ path, total: await total(a, path, { pageSize: 1 }) }).toEqual({ path, total: before + 1 });
      expect({ path, total: await total(a, path, { search, pageSize: 1 }) }).toEqual({ path, total: 1 });
      expect((await send(b, 'delete', `${path}/${created.body.data.id}`)).status).toBe(204);
      expect({ path, total: await total(a, path, { pageSize: 1 }) }).toEqual({ path, total: before });
      expect({ path, total: await total(a, path, { search, pageSize: 1 }) }).toEqual({ path, total: 0 });
    }
  });

  it('the count is skipped while the team is unchanged: a row written without its event is not seen until the next change', async () => {
    // Only writes that record their event move the version (every write of the API does). A row planted by SQL
    // alone shows that the remembered total is what answers, and that the next real change recounts.
    const search = { search: 'planted', pageSize: 1 };
    expect(await total(a, '/v1/work-orders', search)).toBe(0);
    await a.unannouncedSql(
      `INSERT INTO work_orders (team_id, id, number, title, status, priority, intake_channel, unit_id)
       SELECT $1, gen_random_uuid(), last_work_order_number + 1000, 'Planted leak', 'reported', '2', 'api', $2
       FROM teams WHERE id = $1`,
      [team.teamId, unitId],
    );
    expect(await total(a, '/v1/work-orders', search)).toBe(0);
    expect(await total(b, '/v1/work-orders', search)).toBe(1); // b never counted this filter
    expect((await send(a, 'post', '/v1/landlords', { name: 'Any change' })).status).toBe(201);
    expect(await total(a, '/v1/work-orders', search)).toBe(1);
  });

  describe('a work order search total carried over new work orders (no count of every match again)', () => {
    const path = '/v1/work-orders';
    const search = { search: 'drip', pageSize: 1 };
    const matching = `work_orders WHERE team_id = $1 AND (title || chr(31) || code) ILIKE '%drip%'`;

    it('adds the new work orders that match, exactly, through either instance', async () => {
      expect(await total(a, path, search)).toBe(await count(matching));
      const before = await total(a, path, search);
      for (const title of ['Drip from ceiling', 'Broken gate', 'Dripping tap']) {
        expect((await send(b, 'post', path, { title, unitId })).status).toBe(201);
      }
      expect(await total(a, path, search)).toBe(before + 2);
      expect(await count(matching)).toBe(before + 2);
    });

    it('counts nothing but the new rows: a match made by SQL alone stays unseen until a change that is not a create', async () => {
      const base = await total(a, path, search);
      expect(base).toBe(await count(matching));
      // A title changed without its event (no version change, no new row): the carried total cannot see it, which
      // shows that only the new work order was counted. A real count would find it.
      const [row] = await a.unannouncedSql<{ id: string }>(
        `UPDATE work_orders SET title = 'Drip by the boiler'
          WHERE id = (SELECT id FROM work_orders WHERE team_id = $1 AND title = 'Broken gate') RETURNING id`,
        [team.teamId],
      );
      expect(row).toBeDefined();
      expect((await send(a, 'post', path, { title: 'Drip in hall', unitId })).status).toBe(201);
      expect(await total(a, path, search)).toBe(base + 1);
      expect(await count(matching)).toBe(base + 2);
      // An update is not a create: the next change that includes one counts again.
      expect((await send(a, 'put', `${path}/${row.id}`, { priority: '1' })).status).toBe(200);
      expect(await total(a, path, search)).toBe(base + 2);
    });

    it('counts again when rows went without an event (a sandbox reset deletes so): never the old total plus the new', async () => {
      const base = await total(a, path, search);
      expect(base).toBeGreaterThan(0);
      // Deleted by SQL alone, as a sandbox reset deletes: the team has fewer rows than the events say.
      await a.unannouncedSql(`DELETE FROM work_orders WHERE team_id = $1 AND title ILIKE '%drip%'`, [team.teamId]);
      expect((await send(b, 'post', path, { title: 'Drip again', unitId })).status).toBe(201);
      expect(await total(a, path, search)).toBe(1);
      expect(await count(matching)).toBe(1);
    });
  });

  it('a page is read again after any change of the team, and a write by SQL announced as test-app does it', async () => {
    const path = '/v1/landlords';
    const names = async (): Promise<string[]> => {
      const response = await a
        .http()
        .get(path)
        .query({ search: 'Pier', pageSize: 5 })
        .set(...bearer(team));
      return (response.body.data as { name: string }[]).map((landlord) => landlord.name);
    };
    const pier = await send(a, 'post', path, { name: 'Pier Homes' });
    expect(await names()).toEqual(['Pier Homes']);
    expect((await send(b, 'put', `${path}/${pier.body.data.id}`, { name: 'Pier Estates' })).status).toBe(200);
    expect(await names()).toEqual(['Pier Estates']);
    await a.sql('UPDATE landlords SET name = $2 WHERE team_id = $1 AND id = $3', [
      team.teamId,
      'Pier Lettings',
      pier.body.data.id,
    ]);
    expect(await names()).toEqual(['Pier Lettings']);
  });

  it('readers that find the same new version share one read of it: one count after a write, not one each', async () => {
    const search = { search: 'shared', pageSize: 5 };
    const list = () =>
      a
        .http()
        .get('/v1/work-orders')
        .query(search)
        .set(...bearer(team))
        .then((response) => response);
    expect((await send(a, 'post', '/v1/work-orders', { title: 'Shared leak 1', unitId })).status).toBe(201);
    expect((await list()).body.pagination.total).toBe(1);
    // The team changes (through the other instance): a's remembered answer is now one version behind.
    expect((await send(b, 'post', '/v1/work-orders', { title: 'Shared leak 2', unitId })).status).toBe(201);

    type Reading = { readPage: (...args: unknown[]) => Promise<unknown>; reading: Map<string, Promise<unknown>> };
    const repository: Reading = a.app.get<WorkOrdersRepository, Reading>(WorkOrdersRepository);
    const readPage = repository.readPage.bind(repository);
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The first reader's read waits at the gate until the others have found it under way.
    const reads = jest.spyOn(repository, 'readPage').mockImplementation(async (...args: unknown[]) => {
      await gate;
      return readPage(...args);
    });
    const lookups = jest.spyOn(repository.reading, 'get');
    try {
      const first = list();
      await until(async () => reads.mock.calls.length === 1, 'the first read under way');
      const others = [1, 2, 3, 4].map(() => list());
      const joined = () => lookups.mock.results.filter((result) => result.value !== undefined).length;
      await until(async () => joined() === 4, 'the four others joined it');
      open();
      const answers = await Promise.all([first, ...others]);
      expect(answers.map((answer) => [answer.status, answer.body.pagination.total, answer.body.data.length])).toEqual(
        Array(5).fill([200, 2, 2]),
      );
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
      lookups.mockRestore();
    }
  });

  it('under concurrent writes every answer agrees with its own page, and the final totals are exact', async () => {
    const search = { search: 'burst', pageSize: 50 };
    const writes: Promise<unknown>[] = [];
    const reads: Promise<{ status: number; total: number; rows: number; body: unknown }>[] = [];
    for (let i = 0; i < 30; i++) {
      const via = i % 2 ? a : b;
      writes.push(
        send(via, 'post', '/v1/work-orders', { title: `Burst ${i}`, unitId }).then(async (created) => {
          expect(created.status).toBe(201);
          if (i % 3 === 0)
            expect((await send(via, 'delete', `/v1/work-orders/${created.body.data.id}`)).status).toBe(204);
        }),
      );
      for (const reader of [a, b]) {
        reads.push(
          reader
            .http()
            .get('/v1/work-orders')
            .query(search)
            .set(...bearer(team))
            .then((response) => ({
              status: response.status,
              total: response.body.pagination?.total,
              rows: response.body.data?.length,
              body: response.status === 200 ? undefined : response.body,
            })),
        );
      }
    }
    await Promise.all(writes);
    const answers = await Promise.all(reads);
    expect(answers.filter((answer) => answer.status !== 200 || answer.total !== answer.rows)).toEqual([]);
    const exact = await count(`work_orders WHERE team_id = $1 AND title ILIKE '%burst%'`);
    expect(exact).toBe(20);
    expect(await total(a, '/v1/work-orders', search)).toBe(exact);
    expect(await total(b, '/v1/work-orders', search)).toBe(exact);
  });
});
