import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// The webhook endpoint and delivery lists take `sort` and `updatedSince` like every list (CONTRACT "Lists";
// issue 20): endpoints and deliveries are paged by the one helper (TeamScopedTable.pageRows), without
// remembering pages, since their changes record no event.

interface Listed {
  id: string;
  createdAt: string;
  updatedAt: string;
}

describe('webhook lists: sort and updatedSince', () => {
  let sut: TestApp;
  let team: Team;
  const ids: string[] = [];

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    team = await sut.createTeam('Webhook lists');
    for (const n of [1, 2, 3]) {
      const created = await sut
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: `http://127.0.0.1:9/hooks/${n}` })
        .expect(201);
      ids.push((created.body as { data: { id: string } }).data.id);
    }
  });
  afterAll(() => sut.close());

  const list = async (query: string): Promise<Listed[]> => {
    const answer = await sut
      .http()
      .get(`/v1/webhook-endpoints${query}`)
      .set(...bearer(team))
      .expect(200);
    return (answer.body as { data: Listed[] }).data;
  };

  it('orders endpoints newest first by default, oldest first with sort=createdAt', async () => {
    expect((await list('')).map((endpoint) => endpoint.id)).toEqual([...ids].reverse());
    expect((await list('?sort=createdAt')).map((endpoint) => endpoint.id)).toEqual(ids);
  });

  it('lists the endpoints changed since a time, and reads a change at once (no remembered page)', async () => {
    const before = await list('?sort=-updatedAt');
    const since = new Date(Date.parse(before[0].updatedAt) + 1).toISOString();
    expect(await list(`?updatedSince=${since}`)).toEqual([]);
    await sut
      .http()
      .put(`/v1/webhook-endpoints/${ids[0]}`)
      .set(...bearer(team))
      .send({ description: 'Changed' })
      .expect(200);
    const changed = await list(`?updatedSince=${since}&sort=updatedAt`);
    expect(changed.map((endpoint) => endpoint.id)).toEqual([ids[0]]);
    expect((await list('?sort=-updatedAt'))[0].id).toBe(ids[0]);
  });

  it('orders and filters an endpoint’s deliveries, each with createdAt and updatedAt', async () => {
    const endpoint = ids[1];
    const sent: string[] = [];
    for (let n = 0; n < 2; n += 1) {
      const test = await sut
        .http()
        .post(`/v1/webhook-endpoints/${endpoint}/test`)
        .set(...bearer(team))
        .expect(202);
      sent.push((test.body as { data: { id: string } }).data.id);
    }
    const deliveries = async (query: string): Promise<Listed[]> =>
      (
        (
          await sut
            .http()
            .get(`/v1/webhook-endpoints/${endpoint}/deliveries${query}`)
            .set(...bearer(team))
            .expect(200)
        ).body as { data: Listed[] }
      ).data;
    expect((await deliveries('?sort=createdAt')).map((delivery) => delivery.id)).toEqual(sent);
    expect((await deliveries('')).map((delivery) => delivery.id)).toEqual([...sent].reverse());
    const [first] = await deliveries('?sort=createdAt');
    expect(Date.parse(first.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.createdAt));
    expect(await deliveries(`?updatedSince=2999-01-01`)).toEqual([]);
  });

  it('refuses an unknown sort and a search, naming the parameter', async () => {
    const sort = await sut
      .http()
      .get('/v1/webhook-endpoints?sort=url')
      .set(...bearer(team));
    expect(expectError(sort, 400)).toMatch(/sort/);
    const search = await sut
      .http()
      .get('/v1/webhook-endpoints?search=x')
      .set(...bearer(team));
    expect(expectError(search, 400)).toMatch(/search/);
  });

  it('refuses externalRef on both lists (endpoints and deliveries have none), a 400, not a fault', async () => {
    for (const path of ['/v1/webhook-endpoints', `/v1/webhook-endpoints/${ids[0]}/deliveries`]) {
      const answer = await sut
        .http()
        .get(`${path}?externalRef=x`)
        .set(...bearer(team));
      expect(expectError(answer, 400)).toBe('query parameter externalRef is not allowed');
    }
  });
});
