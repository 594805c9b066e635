/** Anything that runs SQL: a DataSource, or an EntityManager after its transaction committed. */
interface Queryable {
  query(text: string): Promise<unknown>;
}

/**
 * Rows written by one bulk operation (an import) from which it analyzes the tables it wrote. Below it, autovacuum's
 * own analyze (at 10 % of a table's rows changed) is soon enough; above it, statements planned before the load would
 * keep plans made for a far smaller table until autovacuum gets round to it, or for ever with autovacuum off.
 */
export const BULK_ANALYZE_ROWS = 1_000;

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * What a bulk path (an import) calls once its rows are committed: when it wrote `BULK_ANALYZE_ROWS` rows or more,
 * `ANALYZE`s `tables`, so the next statements are planned for the tables' new size (PostgreSQL re-plans prepared
 * statements whose tables were analyzed). Answers whether it did. `tables` are the service's own table names.
 */
export async function analyzeAfterBulkWrite(
  db: Queryable,
  tables: readonly string[],
  rowsWritten: number,
): Promise<boolean> {
  if (rowsWritten < BULK_ANALYZE_ROWS || tables.length === 0) return false;
  const bad = tables.find((table) => !TABLE_NAME.test(table));
  if (bad !== undefined) throw new Error(`analyzeAfterBulkWrite: ${JSON.stringify(bad)} is not a table name`);
  await db.query(`ANALYZE ${tables.join(', ')}`);
  return true;
}
