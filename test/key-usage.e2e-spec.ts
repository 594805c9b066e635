import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '@app/common';
import { UsageRecorder, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Key usage (the dashboard's usage page and `last used`) is gathered in memory and written in batches: a request
// never writes to the database. The flush timer is set to an hour here, so the test decides when batches go.

const MINUTE = 60_000;
const DAY = 86_400_000;

describe('API key usage, recorded off the request path', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 9, 30));
  let sut: TestApp;
  let team: CreatedKey;
  const recorder = () => sut.app.get(UsageRecorder);

  beforeAll(async () => {
    sut = await createTestApp({ clock, config: { USAGE_FLUSH_INTERVAL_MS: 3_600_000 } });
    team = await sut.createTeam('Usage team');
  });
  afterAll(() => sut.close());

  const counts = () =>
    sut.sql<{ day: string; status_class: string; requests: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, status_class, requests::int
         FROM api_key_usage_daily WHERE api_key_id = $1 ORDER BY day, status_class`,
      [team.apiKeyId],
    );
  const lastUsed = async () =>
    (
      await sut.sql<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [team.apiKeyId])
    )[0].last_used_at;

  it('writes nothing while requests are served, then one batch with counts per status class and the log', async () => {
    await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(team))
      .expect(200);
    await sut
      .http()
      .get('/v1/landlords?search=x')
      .set(...bearer(team))
      .expect(200);
    await sut
      .http()
      .get('/v1/landlords/00000000-0000-4000-8000-000000000000')
      .set(...bearer(team))
      .expect(404);
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .send({ name: '' })
      .expect(400);
    expect(await counts()).toEqual([]);
    expect(await sut.sql('SELECT 1 FROM api_request_log')).toEqual([]);
    expect(await lastUsed()).toBeNull();

    await recorder().flush();

    expect(await counts()).toEqual([
      { day: '2030-01-01', status_class: '2xx-3xx', requests: 2 },
      { day: '2030-01-01', status_class: '4xx', requests: 2 },
    ]);
    const log = await sut.sql<{ method: string; path: string; status: number; at: Date }>(
      'SELECT method, path, status, at FROM api_request_log WHERE team_id = $1 ORDER BY id',
      [team.teamId],
    );
    // The path only: never the query string, a body or the key.
    expect(log.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /v1/landlords 200',
      'GET /v1/landlords 200',
      'GET /v1/landlords/00000000-0000-4000-8000-000000000000 404',
      'POST /v1/landlords 400',
    ]);
    expect(log[0].at.getTime()).toBe(clock.now());
    expect((await lastUsed())?.getTime()).toBe(clock.now());
  });

  it('adds to the day’s counts from batch to batch (any number of instances can add)', async () => {
    await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(team))
      .expect(200);
    await recorder().flush();
    expect(await counts()).toContainEqual({ day: '2030-01-01', status_class: '2xx-3xx', requests: 3 });
  });

  it('writes last used at most once a minute per key', async () => {
    const first = (await lastUsed())?.getTime();
    clock.advance(30_000);
    await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(team))
      .expect(200);
    await recorder().flush();
    expect((await lastUsed())?.getTime()).toBe(first);

    clock.advance(MINUTE);
    await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(team))
      .expect(200);
    await recorder().flush();
    expect((await lastUsed())?.getTime()).toBe(clock.now());
  });

  it('counts 429s in their own class', async () => {
    const limited = await createTestApp({
      clock,
      databaseUrl: sut.databaseUrl,
      config: { USAGE_FLUSH_INTERVAL_MS: 3_600_000, RATE_LIMIT_PER_MINUTE: 1 },
    });
    try {
      const other = await limited.createTeam('Limited team');
      await limited
        .http()
        .get('/v1/units')
        .set(...bearer(other))
        .expect(200);
      await limited
        .http()
        .get('/v1/units')
        .set(...bearer(other))
        .expect(429);
      await limited.app.get(UsageRecorder).flush();
      const rows = await sut.sql<{ status_class: string; requests: number }>(
        'SELECT status_class, requests::int FROM api_key_usage_daily WHERE api_key_id = $1 ORDER BY status_class',
        [other.apiKeyId],
      );
      expect(rows).toEqual([
        { status_class: '2xx-3xx', requests: 1 },
        { status_class: '429', requests: 1 },
      ]);
    } finally {
      await limited.close();
    }
  });

  it('keeps bounded memory: a burst beyond the buffer is counted as dropped, and only each team’s last 100 are written', async () => {
    const caller = {
      teamId: team.teamId,
      apiKeyId: team.apiKeyId,
      apiKeyName: null,
      access: 'read_write' as const,
      expiresAt: null,
      testMode: false,
    };
    const before = recorder().dropped;
    for (let i = 0; i < 6_000; i++) recorder().record(caller, 'GET', `/v1/units/${i}`, 200, 1);
    expect(recorder().dropped - before).toBe(1_000);
    await recorder().flush();
    const log = await sut.sql<{ path: string }>(
      `SELECT path FROM api_request_log WHERE team_id = $1 AND path LIKE '/v1/units/%' ORDER BY id`,
      [team.teamId],
    );
    expect(log).toHaveLength(100);
    expect(log[99].path).toBe('/v1/units/5999');
    expect(await counts()).toContainEqual({ day: '2030-01-01', status_class: '2xx-3xx', requests: 6_005 });
  });

  it('the cleanup keeps 7 days of counts and each team’s last 100 requests', async () => {
    const old = new Date(clock.now() - 7 * DAY);
    await sut.sql(
      `INSERT INTO api_key_usage_daily (team_id, api_key_id, day, status_class, requests) VALUES ($1, $2, $3, '4xx', 5)`,
      [team.teamId, team.apiKeyId, old.toISOString().slice(0, 10)],
    );
    await sut.sql(
      `INSERT INTO api_key_usage_daily (team_id, api_key_id, day, status_class, requests) VALUES ($1, $2, $3, '4xx', 7)`,
      [team.teamId, team.apiKeyId, new Date(clock.now() - 6 * DAY).toISOString().slice(0, 10)],
    );
    await sut.sql(
      `INSERT INTO api_request_log (team_id, api_key_id, at, method, path, status, duration_ms)
       SELECT $1, $2, $3::timestamptz - make_interval(secs => n), 'GET', '/v1/old', 200, 1 FROM generate_series(1, 50) n`,
      [team.teamId, team.apiKeyId, new Date(clock.now() - 8 * DAY)],
    );
    const total = async () =>
      (
        await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM api_request_log WHERE team_id = $1', [team.teamId])
      )[0].n;
    expect(await total()).toBeGreaterThan(100);

    await recorder().cleanup();

    expect((await counts()).map((row) => row.day)).not.toContain(old.toISOString().slice(0, 10));
    expect((await counts()).map((row) => row.requests)).toContain(7);
    expect(await total()).toBe(100);
    expect(await sut.sql(`SELECT 1 FROM api_request_log WHERE path = '/v1/old'`)).toEqual([]);
  });
});
