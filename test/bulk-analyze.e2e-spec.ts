import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { analyzeAfterBulkWrite, BULK_ANALYZE_ROWS } from '@app/common';
import { createTestApp, type TestApp } from './support/test-app.js';

// A bulk path (an import) calls analyzeAfterBulkWrite after committing: statements planned while a table was small
// must not keep their plans once it is large (docs/operations.md, "What the service needs from PostgreSQL").

describe('analyzeAfterBulkWrite', () => {
  let t: TestApp;
  let db: DataSource;
  const analyzed = async (table: string): Promise<number> => {
    const [{ n }] = await t.unannouncedSql<{ n: number }>(
      'SELECT analyze_count::int AS n FROM pg_stat_user_tables WHERE relname = $1',
      [table],
    );
    return n;
  };

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('leaves a smaller write to autovacuum', async () => {
    expect(await analyzeAfterBulkWrite(db, ['work_orders'], BULK_ANALYZE_ROWS - 1)).toBe(false);
    expect(await analyzed('work_orders')).toBe(0);
  });

  it(`analyzes the tables written once ${BULK_ANALYZE_ROWS} rows or more were`, async () => {
    expect(await analyzeAfterBulkWrite(db, ['work_orders', 'units'], BULK_ANALYZE_ROWS)).toBe(true);
    expect(await analyzed('work_orders')).toBe(1);
    expect(await analyzed('units')).toBe(1);
  });

  it('refuses what is not a table name, running nothing', async () => {
    await expect(analyzeAfterBulkWrite(db, ['units; DROP TABLE units'], 50_000)).rejects.toThrow(
      'analyzeAfterBulkWrite: "units; DROP TABLE units" is not a table name',
    );
    expect(await analyzed('units')).toBe(1);
  });
});
