import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// `pagination.total` of lists filtered only by status/priority is read from counts a trigger keeps in the same
// transaction as each write. These tests compare it with a real COUNT(*) after every kind of write.

const STATUSES = ['reported', 'in_progress', 'completed', 'cancelled'];
const PRIORITIES = ['0', '1', '2', '3'];
const FILTERS: Record<string, string>[] = [
  {},
  { status: 'reported' },
  { status: 'in_progress,completed' },
  { priority: '1' },
  { priority: '0,3' },
  { status: 'reported,cancelled', priority: '2,1' },
  ...STATUSES.flatMap((status) => PRIORITIES.map((priority) => ({ status, priority }))),
];

describe('work order totals stay exact', () => {
  let sut: TestApp;
  let team: { teamId: string; apiKey: string };
  let unitId: string;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
    const unit = await sut
      .http()
      .post('/v1/units')
      .set(...bearer(team))
      .send({ addressLine1: '1 High Street', city: 'Leeds', country: 'United Kingdom', postcode: 'LS1 1AA' });
    unitId = unit.body.data.id;
  });
  afterAll(() => sut.close());

  const create = (priority: string) =>
    sut
      .http()
      .post('/v1/work-orders')
      .set(...bearer(team))
      .send({ title: `Leak ${priority}`, unitId, priority });

  const put = (id: string, body: Record<string, string>) =>
    sut
      .http()
      .put(`/v1/work-orders/${id}`)
      .set(...bearer(team))
      .send(body);

  async function expectTotalsMatchTheTable(): Promise<void> {
    for (const filter of FILTERS) {
      const statuses = filter.status?.split(',') ?? STATUSES;
      const priorities = filter.priority?.split(',') ?? PRIORITIES;
      const [{ count }] = await sut.sql<{ count: string }>(
        'SELECT count(*) FROM work_orders WHERE team_id = $1 AND status = ANY ($2) AND priority = ANY ($3)',
        [team.teamId, statuses, priorities],
      );
      const response = await sut
        .http()
        .get('/v1/work-orders')
        .query({ ...filter, pageSize: 1 })
        .set(...bearer(team));
      expect(response.status).toBe(200);
      expect({ filter, total: response.body.pagination.total }).toEqual({ filter, total: Number(count) });
    }
  }

  it('after creates, status moves and priority changes', async () => {
    const ids: string[] = [];
    for (const priority of ['0', '1', '1', '2', '3', '3', '3']) {
      const response = await create(priority);
      expect(response.status).toBe(201);
      ids.push(response.body.data.id);
    }
    expect((await put(ids[0], { status: 'in_progress' })).status).toBe(200);
    expect((await put(ids[1], { status: 'completed' })).status).toBe(200);
    expect((await put(ids[2], { status: 'cancelled', priority: '0' })).status).toBe(200);
    expect((await put(ids[3], { priority: '1' })).status).toBe(200);
    expect((await put(ids[4], { status: 'reported' })).status).toBe(200); // same status: no move
    expect((await put(ids[1], { status: 'in_progress' })).status).toBe(200);
    await expectTotalsMatchTheTable();
  });

  it('after rejected writes, which change nothing', async () => {
    const created = await create('2');
    const id = created.body.data.id;
    expect((await put(id, { status: 'completed' })).status).toBe(200);
    expect((await put(id, { status: 'cancelled' })).status).toBe(409);
    expect((await put(id, { priority: '7' })).status).toBe(400);
    const rejected = await sut
      .http()
      .post('/v1/work-orders')
      .set(...bearer(team))
      .send({ title: 'Nowhere', unitId: '00000000-0000-4000-8000-000000000000' });
    expect(rejected.status).toBe(400);
    await expectTotalsMatchTheTable();
  });

  it('under concurrent creates and opposite status moves (no deadlock, no lost update)', async () => {
    const seeded = await Promise.all(PRIORITIES.flatMap((priority) => [create(priority), create(priority)]));
    const ids = seeded.map((response) => response.body.data.id as string);
    // Half move reported → in_progress while the other half, already in progress, move back: the two kinds
    // of change touch the same count rows in opposite directions at the same time.
    await Promise.all(ids.slice(4).map((id) => put(id, { status: 'in_progress' })));
    const results = await Promise.all([
      ...ids.slice(0, 4).map((id) => put(id, { status: 'in_progress' })),
      ...ids.slice(4).map((id) => put(id, { status: 'reported' })),
      ...PRIORITIES.map((priority) => create(priority)),
      ...ids.map((id, i) => put(id, { priority: PRIORITIES[i % 4] })),
    ]);
    expect(results.map((response) => response.status).filter((status) => status >= 300)).toEqual([]);
    await expectTotalsMatchTheTable();
  });
});
