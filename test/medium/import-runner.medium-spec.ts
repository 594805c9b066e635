import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { Clock, ManualClock, Transactions } from '@app/common';
import { EventsStore } from '../../apps/api/src/events/index.js';
import { ImportRowWriter } from '../../apps/api/src/imports/import-row-writer.js';
import {
  IMPORT_BATCH_ROWS,
  IMPORT_LEASE_MS,
  IMPORT_MAX_FRUITLESS_CLAIMS,
  ImportRunner,
} from '../../apps/api/src/imports/import-runner.js';
import { ImportsRepository } from '../../apps/api/src/imports/imports.repository.js';
import { ImportsService } from '../../apps/api/src/imports/imports.service.js';
import { ResourceCsvs } from '../../apps/api/src/exports/index.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// CONTRACT "Imports and exports": an import survives a restart (it resumes and writes no row twice), on any number
// of instances. The job's runners are driven by hand here: one that stops after its first batch (a crash between
// batches) and a second one, with its own clock, that takes the import over once the first one's lease ran out;
// then two runners working one import at once. The app's own background runner is stopped first.

const ROWS = 1_200;
/** Every 97th row lacks its city: a failing row, reported once. */
const failing = (n: number): boolean => n % 97 === 0;

function ndjson(prefix: string): Readable {
  const lines = Array.from({ length: ROWS }, (_, index) => {
    const n = index + 1;
    const unit = {
      externalRef: `${prefix}-${n}`,
      addressLine1: `${n} Import Road`,
      postcode: 'IM1 1AA',
      country: 'GB',
    };
    return `${JSON.stringify(failing(n) ? unit : { ...unit, city: 'Leeds' })}\n`;
  });
  return Readable.from(lines);
}

describe(ImportRunner.name, () => {
  let app: MediumApp;
  let teamId: string;
  /** A runner of its own, as another instance would have, with its own clock. */
  const runner = (clock: Clock): ImportRunner =>
    new ImportRunner(
      app.get(DataSource),
      app.get(ImportsRepository),
      app.get(ImportRowWriter),
      app.get(Transactions),
      app.get(EventsStore),
      clock,
    );

  beforeAll(async () => {
    app = await createMediumApp();
    // The instance's own runner stops: the test decides who runs what.
    await app.get(ImportRunner).beforeApplicationShutdown();
    // Without HTTP no document is built: the columns come from the committed one (equal to the served document,
    // `npm run check:openapi`), as `configureApp` hands over the served one.
    app.get(ResourceCsvs).useDocument(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')));
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const queue = async (prefix: string): Promise<string> =>
    (await app.get(ImportsService).create(teamId, 'units', false, 'ndjson', ndjson(prefix))).id;

  /** What the import wrote: each unit's count by externalRef, its events, its errors and its final row. */
  async function written(importId: string, prefix: string) {
    const units = await app.sql<{ ref: string; n: number }>(
      `SELECT external_ref AS ref, count(*)::int AS n FROM units WHERE team_id = $1 AND external_ref LIKE $2 GROUP BY 1`,
      [teamId, `${prefix}-%`],
    );
    const [{ events }] = await app.sql<{ events: number }>(
      `SELECT count(*)::int AS events FROM events WHERE team_id = $1 AND type = 'unit.created'
          AND body::jsonb -> 'data' -> 'object' ->> 'externalRef' LIKE $2`,
      [teamId, `${prefix}-%`],
    );
    const [{ history }] = await app.sql<{ history: number }>(
      `SELECT count(*)::int AS history FROM record_history WHERE team_id = $1 AND actor = $2::jsonb`,
      [teamId, JSON.stringify({ type: 'import', id: importId })],
    );
    const errors = await app.sql<{ row: number }>(
      'SELECT row_number AS row FROM import_errors WHERE team_id = $1 AND import_id = $2 ORDER BY 1',
      [teamId, importId],
    );
    const [completed] = await app.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE team_id = $1 AND type = 'import.completed'
          AND body::jsonb -> 'data' -> 'object' ->> 'id' = $2`,
      [teamId, importId],
    );
    const [row] = await app.sql(
      `SELECT status, processed_rows, created_count, failed_count FROM imports WHERE team_id = $1 AND id = $2`,
      [teamId, importId],
    );
    return { units, events, history, errors: errors.map((error) => error.row), completed: completed.n, row };
  }

  const expected = Array.from({ length: ROWS }, (_, index) => index + 1);
  const expectEveryRowOnce = (result: Awaited<ReturnType<typeof written>>, prefix: string) => {
    const good = expected.filter((n) => !failing(n));
    expect(result.units.filter((unit) => unit.n !== 1)).toEqual([]);
    expect(result.units.map((unit) => unit.ref).sort()).toEqual(good.map((n) => `${prefix}-${n}`).sort());
    expect(result.events).toBe(good.length);
    expect(result.history).toBe(good.length);
    expect(result.errors).toEqual(expected.filter(failing));
    expect(result.completed).toBe(1);
    expect(result.row).toEqual({
      status: 'succeeded',
      processed_rows: ROWS,
      created_count: good.length,
      failed_count: expected.filter(failing).length,
    });
  };

  it('resumes after the last committed batch when a runner dies between batches, writing every row once', async () => {
    const id = await queue('CRASH');
    const start = app.clock.now();
    const first = runner(new ManualClock(start));
    const claimed = await first.claim();
    expect(claimed).toMatchObject({ teamId, id });
    expect(await first.runBatch(claimed!)).toBe('more');
    // The first runner dies here. Its lease still holds: nobody else takes the import yet.
    const later = new ManualClock(start + IMPORT_LEASE_MS - 1);
    expect(await runner(later).claim()).toBeUndefined();
    const [{ processed_rows }] = await app.sql('SELECT processed_rows FROM imports WHERE id = $1', [id]);
    expect(processed_rows).toBe(IMPORT_BATCH_ROWS);

    later.set(start + IMPORT_LEASE_MS + 1);
    const second = runner(later);
    const taken = await second.claim();
    expect(taken).toMatchObject({ teamId, id });
    await second.run(taken!);
    expectEveryRowOnce(await written(id, 'CRASH'), 'CRASH');
    // The first runner, back from the dead, finds nothing left to do.
    expect(await first.runBatch(claimed!)).toBe('stopped');
  });

  it('lets two runners work one import at once: batches in turns, each row once', async () => {
    const id = await queue('PAIR');
    const clock = new ManualClock(app.clock.now());
    const one = runner(clock);
    const two = runner(clock);
    const claimed = await one.claim();
    expect(claimed).toMatchObject({ teamId, id });
    const work = async (who: ImportRunner): Promise<number> => {
      let batches = 0;
      while ((await who.runBatch(claimed!, 100)) === 'more') batches++;
      return batches;
    };
    const [a, b] = await Promise.all([work(one), work(two)]);
    expect(a + b).toBeGreaterThanOrEqual(ROWS / 100 - 1);
    expectEveryRowOnce(await written(id, 'PAIR'), 'PAIR');
  });

  it('stops at the next batch once the import is cancelled, keeping the rows already written', async () => {
    const id = await queue('CANCEL');
    const one = runner(new ManualClock(app.clock.now()));
    const claimed = await one.claim();
    expect(await one.runBatch(claimed!)).toBe('more');
    const cancelled = await app.get(ImportsService).cancel(teamId, id);
    expect(cancelled).toMatchObject({ status: 'cancelled', processedRows: IMPORT_BATCH_ROWS });
    expect(await one.runBatch(claimed!)).toBe('stopped');
    const result = await written(id, 'CANCEL');
    expect(result.units).toHaveLength(IMPORT_BATCH_ROWS - expected.slice(0, IMPORT_BATCH_ROWS).filter(failing).length);
    expect(result.completed).toBe(1);
    await expect(app.get(ImportsService).cancel(teamId, id)).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('gives an import up as failed once it was claimed too often without committing a batch', async () => {
    const id = await queue('FRUITLESS');
    const clock = new ManualClock(app.clock.now());
    let claimed = await runner(clock).claim();
    // Each runner dies before its first batch commits; the next one takes over when the lease runs out.
    for (let claim = 1; claim <= IMPORT_MAX_FRUITLESS_CLAIMS; claim++) {
      clock.advance(IMPORT_LEASE_MS + 1);
      claimed = await runner(clock).claim();
    }
    expect(claimed).toEqual({ teamId, id, claimsWithoutProgress: IMPORT_MAX_FRUITLESS_CLAIMS + 1 });
    await runner(clock).run(claimed!);
    const result = await written(id, 'FRUITLESS');
    expect(result.row).toMatchObject({ status: 'failed', processed_rows: 0 });
    expect(result.units).toEqual([]);
    expect(result.completed).toBe(1);
  });

  it('retries a batch that failed as a whole after a pause that doubles, not after the whole lease', async () => {
    const id = await queue('RETRY');
    const clock = new ManualClock(app.clock.now());
    // The batch's progress update fails with a database error (not a row's): the batch rolls back as a whole.
    await app.sql(`CREATE FUNCTION refuse_progress() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN IF NEW.processed_rows > OLD.processed_rows THEN RAISE EXCEPTION 'the database refused'; END IF;
      RETURN NEW; END $$`);
    await app.sql(
      'CREATE TRIGGER refuse_progress BEFORE UPDATE ON imports FOR EACH ROW EXECUTE FUNCTION refuse_progress()',
    );
    const leaseOf = async () =>
      (await app.sql<{ at: Date }>('SELECT locked_until AS at FROM imports WHERE id = $1', [id]))[0].at.getTime();
    try {
      const first = await runner(clock).claim();
      await runner(clock).run(first!);
      expect(await leaseOf()).toBe(clock.now() + 1_000);
      clock.advance(999);
      expect(await runner(clock).claim()).toBeUndefined();
      clock.advance(1);
      const second = await runner(clock).claim();
      expect(second).toMatchObject({ id, claimsWithoutProgress: 2 });
      await runner(clock).run(second!);
      expect(await leaseOf()).toBe(clock.now() + 2_000);
    } finally {
      await app.sql('DROP TRIGGER refuse_progress ON imports');
      await app.sql('DROP FUNCTION refuse_progress()');
    }
    clock.advance(2_000);
    const third = await runner(clock).claim();
    await runner(clock).run(third!);
    expectEveryRowOnce(await written(id, 'RETRY'), 'RETRY');
  });
});
