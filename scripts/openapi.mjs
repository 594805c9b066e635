// Writes the OpenAPI document the API serves at /v1/openapi.json to `openapi.json` (or the path given as the
// first argument), for Spectral and for client generators. The document is built by the running application
// (Nest reads the controllers and DTOs at start-up), and the application needs a database to start, so this
// boots the built app on a throwaway database: a fresh one on DATABASE_URL's server, or an embedded server on a
// free port whose files are deleted afterwards. Run it through `npm run openapi` (which builds dist/ first).
/* global fetch -- built into every Node the project supports (20.19+) */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { createApi } from '../dist/apps/api/src/bootstrap.js';
import { createLogger, loadConfig } from '../dist/libs/common/src/index.js';
import { runPendingMigrations, startEmbeddedDatabase } from '../dist/libs/database/src/index.js';

const root = join(import.meta.dirname, '..');
const target = process.argv[2] ?? join(root, 'openapi.json');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function withAdmin(serverUrl, sql) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

// Only the settings that shape the document are taken from the environment defaults (the rate limits named in
// its description); the database is always a throwaway one.
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const port = await freePort();
const embedded = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedDatabase({
      dataDir: join(root, `.data/openapi-postgres-${port}`),
      port,
      database: 'postgres',
      persistent: false,
    });
const serverUrl = process.env.DATABASE_URL ?? embedded.url;
const name = `ppa_openapi_${process.pid}`;
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${name}`;

let app;
try {
  await withAdmin(serverUrl, `CREATE DATABASE "${name}"`);
  await runPendingMigrations(databaseUrl.toString());
  app = await createApi(config, databaseUrl.toString(), { logger: createLogger('silent') });
  await app.listen(0, '127.0.0.1');
  const response = await fetch(`${await app.getUrl()}/v1/openapi.json`);
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  const document = await response.json();
  await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stderr.write(`Wrote ${target}\n`);
} finally {
  await app?.close();
  await withAdmin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
  await embedded?.stop();
}
