import pg from 'pg';

/**
 * Drops this run's template and stops an embedded server. A spec database still present here was leaked by a
 * spec file (one that hands `databaseUrl` to createTestApp owns that database and must drop it): it is dropped
 * too, and the run fails, because against a shared DATABASE_URL server such leftovers pile up run after run.
 */
export default async function globalTeardown() {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  const prefix = process.env.TEST_DATABASE_PREFIX;
  let leaked = [];
  try {
    if (serverUrl && template) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        if (prefix) {
          const { rows } = await admin.query(
            'SELECT datname FROM pg_database WHERE left(datname, length($1)) = $1 ORDER BY datname',
            [prefix],
          );
          leaked = rows.map((row) => row.datname);
          for (const name of leaked) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }
        await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`).catch(() => undefined);
      } finally {
        await admin.end();
      }
    }
  } finally {
    await globalThis.__embeddedDatabaseStop?.();
  }
  if (leaked.length > 0) {
    throw new Error(
      `${leaked.length} test database(s) were left behind by spec files (dropped now): ${leaked.join(', ')}. ` +
        'A spec that passes `databaseUrl` to createTestApp must drop that database in its afterAll.',
    );
  }
}
