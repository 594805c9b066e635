// Jest loads global setup outside its ESM runtime, so this file is plain JavaScript and uses the compiled
// database library (the test script builds dist/ first when sources changed).
import pg from 'pg';
import { runPendingMigrations, startEmbeddedDatabase } from '../../dist/libs/database/src/index.js';
import { freePort } from '../../scripts/lib/local-server.mjs';

/**
 * Starts PostgreSQL for the run (DATABASE_URL's server, or an embedded one on its own port and folder),
 * migrates a template database once, and hands both to the spec files through the environment. Each spec
 * file then works in its own copy (`CREATE DATABASE … TEMPLATE …`).
 */
export default async function globalSetup() {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // A throwaway cluster per run, on a free port: concurrent runs never share or stop each other's server.
    const port = await freePort();
    const embedded = await startEmbeddedDatabase({
      dataDir: `.data/test-postgres-${port}`,
      port,
      database: 'postgres',
      persistent: false,
    });
    globalThis.__embeddedDatabaseStop = embedded.stop;
    serverUrl = embedded.url;
  }
  const template = `ppa_test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${template}"`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${template}`;
  await runPendingMigrations(templateUrl.toString());

  process.env.TEST_DATABASE_SERVER_URL = serverUrl;
  process.env.TEST_DATABASE_TEMPLATE = template;
  // Every spec database of this run starts with this, so the teardown can find any a spec left behind.
  process.env.TEST_DATABASE_PREFIX = `ppa_test_${process.pid}_`;
}
