import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { expectError } from './support/assertions.js';

describe('health probes', () => {
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    // A limit of 2 per minute: any probe that counted against the key would use it up at once.
    sut = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 2 } });
    team = await sut.createTeam('Health team');
  });
  afterAll(() => sut.close());

  it.each([
    ['/health', { status: 'ok' }],
    ['/health/ready', { status: 'ready' }],
  ])('GET %s answers 200 without a key and without rate-limit headers', async (path, body) => {
    const response = await sut.http().get(path);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(body);
    expect(Object.keys(response.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    expect(response.headers['retry-after']).toBeUndefined();
    // Never cached by a proxy (a stale "ready" would mislead a balancer), never sniffed.
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/health', '/health/ready'])('GET %s ignores a bad Authorization header', async (path) => {
    expect((await sut.http().get(path).set('Authorization', 'Bearer nonsense')).status).toBe(200);
    expect((await sut.http().get(path).set('Authorization', 'Basic abc')).status).toBe(200);
  });

  it('never counts against a key, however often it is called', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await sut
        .http()
        .get(i % 2 ? '/health' : '/health/ready')
        .set(...bearer(team));
      expect({ status: response.status, limit: response.headers['x-ratelimit-limit'] }).toEqual({
        status: 200,
        limit: undefined,
      });
    }
    // The key's whole budget of 2 is still there.
    const first = await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(team));
    expect({ status: first.status, remaining: first.headers['x-ratelimit-remaining'] }).toEqual({
      status: 200,
      remaining: '1',
    });
  });

  it('sends /docs/ (a trailing slash, whose relative scripts would not load) to /docs, keeping the query', async () => {
    const response = await sut.http().get('/docs/?tryItOutEnabled=true');
    expect({ status: response.status, location: response.headers.location }).toEqual({
      status: 301,
      location: '/docs?tryItOutEnabled=true',
    });
    expect((await sut.http().get('/docs')).status).toBe(200);
  });

  it('lives outside /v1', async () => {
    expectError(await sut.http().get('/v1/health'), 404);
    expectError(await sut.http().get('/v1/health/ready'), 404);
  });
});

describe('readiness without a database', () => {
  let sut: TestApp;
  let admin: pg.Client;
  let database: string;

  beforeAll(async () => {
    sut = await createTestApp();
    database = new URL(sut.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await admin.end();
    await sut.close();
  });

  it('reports 503 {error} on /health/ready while liveness stays 200', async () => {
    expect((await sut.http().get('/health/ready')).status).toBe(200);
    // A real outage, not a mock: the app's connections are cut and new ones refused.
    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [database, 'property-portfolio-api'],
    );
    expect(expectError(await sut.http().get('/health/ready'), 503)).toBe('Database unavailable');
    expect((await sut.http().get('/health')).status).toBe(200);

    await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    expect((await sut.http().get('/health/ready')).status).toBe(200);
  });
});
