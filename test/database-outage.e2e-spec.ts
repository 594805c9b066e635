import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  runPendingMigrations,
  startEmbeddedDatabase,
  type EmbeddedDatabaseOptions,
  type RunningDatabase,
} from '@app/database';
import { captureLogs } from './support/log-lines.js';
import { freePort } from './support/service-process.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { until as waitUntil } from './support/until.js';

// The database goes away under a running service (its server stopped, as a crash or a failover would) and comes
// back: every request meanwhile is 503 {error} with Retry-After, never a 500, and the service recovers by itself
// (reliability issue, defect 4). A PostgreSQL of this test's own, so stopping it disturbs no other spec.

jest.setTimeout(180_000);

const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) =>
  waitUntil(condition, what, timeoutMs, 100);

describe('the database goes away and comes back', () => {
  let options: EmbeddedDatabaseOptions;
  let database: RunningDatabase;
  let sut: TestApp;
  let apiKey: string;
  const logs = captureLogs('warn');

  beforeAll(async () => {
    // Under .data like the test cluster (the embedded server runs initdb as the postgres user, who cannot enter a
    // root-only temporary folder).
    const port = await freePort();
    options = { dataDir: join('.data', `test-outage-${port}`), port, database: 'outage', persistent: true };
    database = await startEmbeddedDatabase(options);
    await runPendingMigrations(database.url);
    sut = await createTestApp({ databaseUrl: database.url, logger: logs.logger });
    ({ apiKey } = await sut.createTeam('Outage team'));
  });
  afterAll(async () => {
    await sut?.close().catch(() => undefined);
    await database?.stop();
    if (options) await rm(options.dataDir, { recursive: true, force: true });
  });

  const list = () =>
    sut
      .http()
      .get('/v1/units')
      .set(...bearer(apiKey));

  it('answers 503 with Retry-After while it is down, logs the lost listener once, and recovers without a restart', async () => {
    await list().expect(200);
    logs.clear();
    await database.stop();

    const answers: number[] = [];
    const started = Date.now();
    while (Date.now() - started < 4_000) {
      const response = await list();
      answers.push(response.status);
      if (response.status === 503) {
        expect(response.body).toEqual({ error: 'The database is unavailable; retry shortly' });
        expect(response.headers['retry-after']).toBe('2');
      }
      const write = await sut
        .http()
        .post('/v1/landlords')
        .set(...bearer(apiKey))
        .send({ name: 'Written during the outage' });
      answers.push(write.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answers.length).toBeGreaterThan(10);
    expect(new Set(answers)).toEqual(new Set([503]));
    // Each 503 is logged as a request line (a 5xx) and one warning with the reason; nothing as an error.
    const unexpected = logs.lines.filter((line) => line.level === 'error' && line.msg !== 'request');
    expect(unexpected).toEqual([]);
    const lost = logs.lines.filter((line) => String(line.msg).includes('revocation listener lost'));
    expect(lost.length).toBeLessThanOrEqual(1);

    database = await startEmbeddedDatabase(options);
    await until(async () => (await list()).status === 200, 'the service to answer 200 again');
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(apiKey))
      .send({ name: 'Written after the outage' })
      .expect(201);
    const names = (await sut.sql<{ name: string }>('SELECT name FROM landlords')).map((row) => row.name);
    expect(names).toEqual(['Written after the outage']);
  });
});
