import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { ManualClock } from '@app/common';
import { IMPORT_BATCH_ROWS, IMPORT_LEASE_MS } from '../apps/api/src/imports/index.js';
import {
  conformingFetch,
  freePort,
  servedConformance,
  spawnService,
  type ServiceProcess,
} from './support/service-process.js';
import { createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// CONTRACT "Imports and exports": an import survives a restart — it resumes and writes no row twice. The service
// process is killed (SIGKILL, no shutdown of any kind) while it runs an import; another instance takes the import
// over once the dead one's lease has run out, and every row ends up written exactly once, with one event each.

jest.setTimeout(300_000);

const ROWS = 10_000;

describe('an import whose service is killed half-way', () => {
  let databaseUrl: string;
  let service: ServiceProcess | undefined;
  let sut: TestApp | undefined;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await sut?.close();
    await dropTestDatabase(databaseUrl);
  });

  it('is finished by another instance, every row written once', async () => {
    const port = await freePort();
    service = spawnService({ PORT: String(port), DATABASE_URL: databaseUrl });
    const started = service;
    await until(() => /API key (ppk_\w+)/.test(started.output()), 'the demo key in the start-up lines', 120_000);
    const apiKey = /API key (ppk_\w+)/.exec(started.output())?.[1] ?? '';
    const lines = Array.from({ length: ROWS }, (_, index) =>
      JSON.stringify({
        externalRef: `KILL-${index + 1}`,
        addressLine1: `${index + 1} Killed Road`,
        city: 'Leeds',
        postcode: 'LS1 1AA',
        country: 'GB',
      }),
    ).join('\n');
    const checkedFetch = conformingFetch(await servedConformance(`http://127.0.0.1:${port}`));
    const response = await checkedFetch(`http://127.0.0.1:${port}/v1/imports?resource=units`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-ndjson' },
      body: lines,
    });
    expect(response.status).toBe(202);
    const { id } = ((await response.json()) as { data: { id: string } }).data;

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const progress = async (): Promise<{ status: string; processed: number }> =>
      (
        await db.query<{ status: string; processed: number }>(
          'SELECT status, processed_rows AS processed FROM imports WHERE id = $1',
          [id],
        )
      ).rows[0];
    try {
      await until(async () => (await progress()).processed >= IMPORT_BATCH_ROWS, 'a first batch committed');
      started.child.kill('SIGKILL');
      await started.exited;
      const atKill = await progress();
      expect(atKill.status).toBe('running');
      expect(atKill.processed).toBeLessThan(ROWS);
    } finally {
      await db.end();
    }

    // Another instance, whose clock is past the dead one's lease.
    sut = await createTestApp({ databaseUrl, clock: new ManualClock(Date.now() + IMPORT_LEASE_MS + 60_000) });
    const app = sut;
    await until(
      async () =>
        (await app.sql<{ status: string }>('SELECT status FROM imports WHERE id = $1', [id]))[0].status === 'succeeded',
      'the import finished by the other instance',
      240_000,
    );
    const [counts] = await app.sql<{ units: number; refs: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM units WHERE external_ref LIKE 'KILL-%') AS units,
              (SELECT count(DISTINCT external_ref)::int FROM units WHERE external_ref LIKE 'KILL-%') AS refs,
              (SELECT count(*)::int FROM events WHERE type = 'unit.created'
                  AND body::jsonb -> 'data' -> 'object' ->> 'externalRef' LIKE 'KILL-%') AS events`,
    );
    expect(counts).toEqual({ units: ROWS, refs: ROWS, events: ROWS });
    const [row] = await app.sql('SELECT processed_rows, created_count, failed_count FROM imports WHERE id = $1', [id]);
    expect(row).toEqual({ processed_rows: ROWS, created_count: ROWS, failed_count: 0 });
  });
});
