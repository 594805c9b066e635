import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { captureLogs } from './support/log-lines.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// The service's database connections are terminated again and again while writes run (a failover, an operator's
// pg_terminate_backend): answers are 201 or 503 {error} with Retry-After — never a 500 — every acknowledged write is
// there afterwards, and the service recovers at once when the terminations stop.

jest.setTimeout(120_000);

describe('database connections terminated under a write load', () => {
  let sut: TestApp;
  let team: CreatedKey;
  const logs = captureLogs('error');

  beforeAll(async () => {
    sut = await createTestApp({ logger: logs.logger });
    team = await sut.createTeam('Faults team');
  });
  afterAll(() => sut.close());

  const write = (name: string) =>
    sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .send({ name });

  it('answers only 201 or 503, loses no acknowledged write, and recovers', async () => {
    const killer = new pg.Client({ connectionString: sut.databaseUrl });
    killer.on('error', () => undefined);
    await killer.connect();
    let killing = true;
    let terminated = 0;
    const kills = (async () => {
      while (killing) {
        const { rows } = await killer.query<{ killed: boolean }>(
          `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        );
        terminated += rows.filter((row) => row.killed).length;
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    try {
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => write(`Fault ${batch}-${i}`)));
        for (const answer of answers) {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 201) acknowledged.push((answer.body as { data: { id: string } }).data.id);
          if (answer.status === 503) {
            expect(answer.body).toEqual({ error: 'The database is unavailable; retry shortly' });
            expect(answer.headers['retry-after']).toBe('2');
          }
        }
      }
    } finally {
      killing = false;
      await kills;
    }
    expect(terminated).toBeGreaterThan(0);
    const faults = logs.lines.filter((line) => line.msg !== 'request').map((line) => String(line.msg).slice(0, 200));
    expect({ others: [...statuses.keys()].filter((status) => status !== 201 && status !== 503), faults }).toEqual({
      others: [],
      faults: [],
    });

    // Every write that was answered 201 is stored (read on a connection of the test's own).
    const { rows } = await killer.query<{ id: string }>('SELECT id FROM landlords WHERE id = ANY($1)', [acknowledged]);
    await killer.end();
    expect(rows.map((row) => row.id).sort()).toEqual([...acknowledged].sort());

    // Recovery: with the terminations over, writes succeed at once (the pool replaces dead connections).
    let recovered = 0;
    for (let i = 0; i < 10; i++) if ((await write(`After ${i}`)).status === 201) recovered++;
    expect(recovered).toBeGreaterThanOrEqual(9);
    expect((await write('Last')).status).toBe(201);
  });
});
