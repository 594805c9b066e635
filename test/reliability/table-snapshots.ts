import type { TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

/**
 * Stored answers of `Idempotency-Key` requests: a refused request with a key is stored by design (a retry
 * gets the same 4xx), so this table may grow while nothing else may.
 */
const IDEMPOTENCY_TABLE = 'idempotency_keys';
/**
 * API-key usage (daily counts by status class, the last requests): every answered request with a valid key is
 * counted, refused ones too, by design — it is what the dashboard's usage page shows, not data.
 */
const USAGE_TABLES = ['api_key_usage_daily', 'api_request_log'];
/** Written at most once a minute per key on use, refused request or not: bookkeeping, not data. */
const BOOKKEEPING_COLUMNS = ['last_used_at'];

const rowText = `(to_jsonb(t) - '{${BOOKKEEPING_COLUMNS.join(',')}}'::text[])::text`;

/** Every table of the public schema but the idempotency store and the usage counters. */
export async function watchedTables(sut: TestApp): Promise<string[]> {
  const rows = await sut.sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> ALL ($1) ORDER BY table_name`,
    [[IDEMPOTENCY_TABLE, ...USAGE_TABLES]],
  );
  return rows.map((row) => row.name);
}

/** One checksum per table over all its rows, in one round trip: cheap enough to take after every batch. */
export async function tableChecksums(sut: TestApp, tables: string[]): Promise<Record<string, string>> {
  const columns = tables.map(
    (table) =>
      `(SELECT coalesce(md5(string_agg(${rowText}, '' ORDER BY ${rowText})), '') FROM "${table}" t) AS "${table}"`,
  );
  const [row] = await sut.sql<Record<string, string>>(`SELECT ${columns.join(', ')}`);
  return row;
}

/**
 * `tableChecksums` of one team's rows: those whose `team_id` is the team's (its own row of `teams`); a table without
 * a `team_id` column holds no team's records and is left out.
 */
export async function teamChecksums(sut: TestApp, tables: string[], teamId: string): Promise<Record<string, string>> {
  const scoped = await sut.sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'team_id' AND table_name = ANY ($1)`,
    [tables],
  );
  const teamColumn = new Map(scoped.map((row): [string, string] => [row.name, 'team_id']));
  if (tables.includes('teams')) teamColumn.set('teams', 'id');
  const columns = [...teamColumn].map(
    ([table, column]) =>
      `(SELECT coalesce(md5(string_agg(${rowText}, '' ORDER BY ${rowText})), '') FROM "${table}" t
         WHERE t.${column} = $1) AS "${table}"`,
  );
  const [row] = await sut.sql<Record<string, string>>(`SELECT ${columns.join(', ')}`, [teamId]);
  return row;
}

/** Every row of every table, as text, to count what changed between two snapshots. */
export async function tableRows(sut: TestApp, tables: string[]): Promise<Map<string, Set<string>>> {
  const snapshot = new Map<string, Set<string>>();
  for (const table of tables) {
    const rows = await sut.sql<{ row: string }>(`SELECT ${rowText} AS row FROM "${table}" t`);
    snapshot.set(table, new Set(rows.map((entry) => entry.row)));
  }
  return snapshot;
}

/** Rows added, removed or changed (a changed row counts once as removed and once as added). */
export function rowsChanged(before: Map<string, Set<string>>, after: Map<string, Set<string>>): number {
  let changed = 0;
  for (const [table, rows] of before) {
    const later = after.get(table) ?? new Set<string>();
    for (const row of rows) if (!later.has(row)) changed++;
    for (const row of later) if (!rows.has(row)) changed++;
  }
  return changed;
}

/**
 * Resolves once the webhook dispatcher's first attempt at every delivery is over (none is new or being sent). With
 * the app's `WEBHOOK_RETRY_SCHEDULE` an hour long, the deliveries' rows then stay still while snapshots are compared.
 */
export function deliveriesSettled(sut: TestApp): Promise<void> {
  return until(
    async () =>
      (
        await sut.sql<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhook_deliveries WHERE attempts = 0 OR locked_until > now()',
        )
      )[0].n === 0,
    'the first attempt at every webhook delivery',
  );
}
