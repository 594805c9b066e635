// `node scripts/generate-resource/migration-round-trip.mjs <table>`, run by `npm run test:generator` in its copy
// after the build: applies every migration to a scratch database, reverts the newest (the generated one) and
// applies it again, so the generated down() is proven to undo up(). The e2e spec only ever runs up().
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { freePort, adminQuery as admin } from '../lib/local-server.mjs';

const table = process.argv[2];
if (!table) throw new Error('usage: migration-round-trip.mjs <table>');
// The copy's own build, as the tests use it.
const { dataSourceOptions, runPendingMigrations, startEmbeddedDatabase } = await import(
  pathToFileURL(join(process.cwd(), 'dist/libs/database/src/index.js')).href
);

async function tableExists(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [table]);
    return rows[0].found;
  } finally {
    await client.end();
  }
}

function check(condition, message) {
  if (!condition) throw new Error(`migration round trip: ${message}`);
}

// Like the tests' global setup: DATABASE_URL's server when set, otherwise a throwaway embedded one.
let stop = async () => undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  const port = await freePort();
  const embedded = await startEmbeddedDatabase({
    dataDir: `.data/generator-postgres-${port}`,
    port,
    database: 'postgres',
    persistent: false,
  });
  stop = embedded.stop;
  serverUrl = embedded.url;
}
const scratch = `ppa_generator_${process.pid}`;
const url = new URL(serverUrl);
url.pathname = `/${scratch}`;
try {
  await admin(serverUrl, `CREATE DATABASE "${scratch}"`);
  try {
    const applied = await runPendingMigrations(url.toString());
    check(await tableExists(url.toString()), `${table} missing after ${applied.join(', ')}`);

    const dataSource = await new DataSource(dataSourceOptions(url.toString())).initialize();
    try {
      await dataSource.undoLastMigration({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
    check(!(await tableExists(url.toString())), `${table} still there after reverting ${applied.at(-1)}`);

    const again = await runPendingMigrations(url.toString());
    check(again.length === 1 && again[0] === applied.at(-1), `re-applied ${again.join(', ') || 'nothing'}`);
    check(await tableExists(url.toString()), `${table} missing after re-applying ${again[0]}`);
    process.stdout.write(`${again[0]}: up, down, up again\n`);
  } finally {
    await admin(serverUrl, `DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
  }
} finally {
  await stop();
}
