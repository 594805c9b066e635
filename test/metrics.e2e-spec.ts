import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

/** `name{labels} value` lines of the Prometheus text format, by series. */
function series(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

describe('GET /metrics', () => {
  let sut: TestApp;
  let team: CreatedKey;

  async function scrape(): Promise<Map<string, number>> {
    const response = await sut.http().get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return series(response.text);
  }

  beforeAll(async () => {
    // Tiny limits so that a 429 is easy to provoke.
    sut = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 3, RATE_LIMIT_WRITES_PER_MINUTE: 3 } });
    team = await sut.createTeam('Metrics team');
  });
  afterAll(() => sut.close());

  it('counts requests by route template, method and status, 429s included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await sut
            .http()
            .get('/v1/contractors')
            .set(...bearer(team))
        ).status,
      );
    statuses.push(
      (
        await sut
          .http()
          .get('/v1/contractors')
          .set(...bearer(team))
      ).status,
    );
    const other = await sut.createTeam('Other team');
    const missing = randomUUID();
    statuses.push(
      (
        await sut
          .http()
          .get(`/v1/work-orders/${missing}`)
          .set(...bearer(other))
      ).status,
    );
    statuses.push((await sut.http().get('/v1/nothing-here')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 404, 404]);

    const metrics = await scrape();
    expect(metrics.get('http_requests_total{route="/v1/contractors",method="GET",status="200"}')).toBe(3);
    expect(metrics.get('http_requests_total{route="/v1/contractors",method="GET",status="429"}')).toBe(1);
    expect(metrics.get('http_rate_limited_requests_total{route="/v1/contractors",method="GET"}')).toBe(1);
    expect(metrics.get('http_requests_total{route="/v1/work-orders/:workOrderId",method="GET",status="404"}')).toBe(1);
    expect(metrics.get('http_requests_total{route="(unmatched)",method="GET",status="404"}')).toBe(1);
    expect(metrics.get('http_request_duration_seconds_count{route="/v1/contractors",method="GET",status="200"}')).toBe(
      3,
    );
    expect(
      metrics.get('http_request_duration_seconds_bucket{le="+Inf",route="/v1/contractors",method="GET",status="200"}'),
    ).toBe(3);
    // Concrete ids and unknown paths never become label values.
    const names = [...metrics.keys()].join('\n');
    expect(names).not.toContain(missing);
    expect(names).not.toContain('nothing-here');
  });

  it('reports the database pool at scrape time and the default process metrics', async () => {
    const metrics = await scrape();
    expect(metrics.get('db_pool_max_connections')).toBe(10);
    expect(metrics.get('db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(metrics.get('db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(metrics.get('db_pool_waiting_requests')).toBe(0);
    expect(metrics.has('process_cpu_user_seconds_total')).toBe(true);
    expect(metrics.has('nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('needs no key, is never rate limited, and stays outside /v1 and the OpenAPI document', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await sut.http().get('/metrics').set('Authorization', 'Bearer nonsense');
      expect({ status: response.status, limit: response.headers['x-ratelimit-limit'] }).toEqual({
        status: 200,
        limit: undefined,
      });
    }
    expectError(await sut.http().get('/v1/metrics'), 404);
    const document = await sut.http().get('/v1/openapi.json');
    expect(Object.keys(document.body.paths as object).filter((path) => path.includes('metrics'))).toEqual([]);
  });

  it('counts per app instance: another instance in the same process starts from zero', async () => {
    const second = await createTestApp({ databaseUrl: sut.databaseUrl });
    try {
      const response = await second.http().get('/metrics');
      const metrics = series(response.text);
      expect(metrics.has('http_requests_total{route="/v1/contractors",method="GET",status="200"}')).toBe(false);
    } finally {
      await second.close();
    }
  });
});

describe('METRICS_ENABLED=false', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ config: { METRICS_ENABLED: false } });
  });
  afterAll(() => sut.close());

  it('answers /metrics like any unknown route', async () => {
    expect(expectError(await sut.http().get('/metrics'), 404)).toBe('Route not found');
    expect((await sut.http().get('/health')).status).toBe(200);
  });
});
