import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { behindTransactionPooler, preparedQuery } from '@app/common';
import { captureLogs } from '../support/log-lines.js';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type Team,
  type TestApp,
} from '../support/test-app.js';

// Only in `npm run test:pooler`: every app here reaches PostgreSQL through PgBouncer in transaction mode
// (test/support/pooler-global-setup.mjs), where consecutive transactions of one client connection run on whichever
// server connection is free, so nothing may rely on what an earlier statement left on "its" connection.

/** More requests at once than the pooler has server connections (default_pool_size = 8), so they share them. */
const CONCURRENT = 24;

const UNIT = { addressLine1: '1 Pooler Lane', city: 'Leeds', country: 'United Kingdom', postcode: 'LS1 4AP' };

describe('behind a transaction pooler (PgBouncer, pool_mode = transaction)', () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await createTestApp();
    team = await t.createTeam();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reaches the database through the pooler, as DB_POOLER=transaction', () => {
    const db = t.app.get(DataSource);
    const poolerPort = new URL(process.env.TEST_POOLER_URL ?? 'postgres://unset').port;
    expect(new URL((db.options as { url: string }).url).port).toBe(poolerPort);
    expect(new URL(t.databaseUrl).port).not.toBe(poolerPort);
    expect(behindTransactionPooler(db)).toBe(true);
  });

  it('answers concurrent writes and lookups by id (prepared statements run unnamed)', async () => {
    const created = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        t
          .http()
          .post('/v1/units')
          .set(...bearer(team))
          .send({ ...UNIT, addressLine1: `${i + 1} Pooler Lane` }),
      ),
    );
    expect(created.map((response) => response.status)).toEqual(created.map(() => 201));
    const unitId: string = created[0].body.data.id;
    const workOrders = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        t
          .http()
          .post('/v1/work-orders')
          .set(...bearer(team))
          .send({ title: `Leak ${i}`, description: 'Under the sink', unitId }),
      ),
    );
    expect(workOrders.map((response) => response.status)).toEqual(workOrders.map(() => 201));
    // Twice over: a second run of a text is where a named statement would be looked for on another connection.
    for (let round = 0; round < 2; round++) {
      const lookups = await Promise.all(
        workOrders.map((response) =>
          t
            .http()
            .get(`/v1/work-orders/${response.body.data.id}`)
            .set(...bearer(team)),
        ),
      );
      expect(lookups.map((response) => response.status)).toEqual(lookups.map(() => 200));
    }
  });

  it('runs a prepared text as many times as asked on the pooled connections, unnamed', async () => {
    const db = t.app.get(DataSource);
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT * 2 }, (_, i) =>
        preparedQuery<{ n: number }>(db.manager, 'SELECT $1::int AS n', [i]),
      ),
    );
    expect(answers.map(([row]) => row.n)).toEqual(answers.map((_, i) => i));
  });
});

describe('the statement timeout behind a transaction pooler', () => {
  it('is not set by the service: start-up warns while the database does not set DB_STATEMENT_TIMEOUT_MS', async () => {
    const logs = captureLogs('warn');
    const t = await createTestApp({ logger: logs.logger });
    try {
      const warnings = logs.lines.filter((line) => line.level === 'warn').map((line) => String(line.msg));
      expect(warnings).toEqual([
        expect.stringContaining("cannot set statement_timeout on its connections: PostgreSQL's is 0 ms there"),
      ]);
      expect(warnings[0]).toContain(
        `ALTER DATABASE "${new URL(t.databaseUrl).pathname.slice(1)}" SET statement_timeout = 10000`,
      );
    } finally {
      await t.close();
    }
  });

  it('holds, without a warning, once the database sets it as the warning says', async () => {
    const databaseUrl = await createTestDatabase();
    const name = new URL(databaseUrl).pathname.slice(1);
    const logs = captureLogs('warn');
    let t: TestApp | undefined;
    try {
      const admin = new DataSource({ type: 'postgres', url: databaseUrl });
      await admin.initialize();
      await admin.query(`ALTER DATABASE "${name}" SET statement_timeout = 300`);
      await admin.destroy();
      t = await createTestApp({ databaseUrl, logger: logs.logger, config: { DB_STATEMENT_TIMEOUT_MS: 300 } });
      expect(logs.lines.filter((line) => line.level === 'warn')).toEqual([]);
      // PostgreSQL cancels a pooled query that runs longer (57014: canceling statement due to statement timeout).
      await expect(t.app.get(DataSource).query('SELECT pg_sleep(3)')).rejects.toMatchObject({
        driverError: expect.objectContaining({ code: '57014' }),
      });
    } finally {
      await t?.close();
      await dropTestDatabase(databaseUrl);
    }
  });
});
