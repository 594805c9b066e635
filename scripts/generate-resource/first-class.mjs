// `node scripts/generate-resource/first-class.mjs <items-kebab> <item_snake>`, run by `npm run test:generator` in
// its copy after the build: proves the generated resource first-class end to end, with no hand edit. It starts the
// built service (`dist/apps/api/src/main.js`) on a scratch database, takes the demo team's key from the start-up
// lines, creates a record, finds its `<item>.created` event with `types=` on the feed, registers a webhook
// endpoint for that type, deletes the record and finds the `.deleted` event.
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, adminQuery as admin } from '../lib/local-server.mjs';

const [collection, record] = process.argv.slice(2);
if (!collection || !record) throw new Error('usage: first-class.mjs <items-kebab> <item_snake>');
const { startEmbeddedDatabase } = await import(
  pathToFileURL(join(process.cwd(), 'dist/libs/database/src/index.js')).href
);

function check(condition, message) {
  if (!condition) throw new Error(`first-class check: ${message}`);
}

/** Starts the built service; resolves with its base URL and the demo key once the demo team is printed. */
function startService(databaseUrl, port) {
  const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no demo key after 300 s:\n${output}`)), 300_000);
    const read = (chunk) => {
      output += chunk;
      const key = /API key (ppk_\w+)/.exec(output)?.[1];
      if (key) {
        clearTimeout(timer);
        resolve({ base: `http://127.0.0.1:${port}/v1`, key });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before it was ready:\n${output}`));
    });
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { ready, stop };
}

async function call(base, key, method, path, body) {
  const response = await globalThis.fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function exercise(base, key) {
  const listed = await call(base, key, 'GET', `/${collection}`);
  check(
    listed.status === 200 && listed.body.data.length === 1,
    `the demo team's example record: ${JSON.stringify(listed)}`,
  );

  // The example record carries the template's externalRef: the list's filter finds it, and a second record may
  // not take it (a 409 naming it).
  const { externalRef } = listed.body.data[0];
  const byRef = await call(base, key, 'GET', `/${collection}?externalRef=${encodeURIComponent(externalRef)}`);
  check(
    typeof externalRef === 'string' && byRef.status === 200 && byRef.body.data.length === 1,
    `GET /v1/${collection}?externalRef=${externalRef}: ${JSON.stringify(byRef)}`,
  );
  const duplicate = await call(base, key, 'POST', `/${collection}`, { name: 'Duplicate ref', externalRef });
  check(
    duplicate.status === 409 && duplicate.body.error.includes(`"${externalRef}"`),
    `POST /v1/${collection} with the example's externalRef: ${JSON.stringify(duplicate)}`,
  );

  const created = await call(base, key, 'POST', `/${collection}`, { name: 'First-class check' });
  check(created.status === 201, `POST /v1/${collection}: ${JSON.stringify(created)}`);
  const id = created.body.data.id;

  const type = `${record}.created`;
  const feed = await call(base, key, 'GET', `/events?types=${type}`);
  check(feed.status === 200, `GET /v1/events?types=${type}: ${JSON.stringify(feed)}`);
  check(
    feed.body.data.some((event) => event.type === type && event.data.object.id === id),
    `no ${type} event for ${id} on the feed: ${JSON.stringify(feed.body)}`,
  );

  const endpoint = await call(base, key, 'POST', '/webhook-endpoints', {
    url: 'https://127.0.0.1:9/first-class',
    types: [type, `${record}.deleted`],
  });
  check(endpoint.status === 201, `a webhook endpoint for ${type}: ${JSON.stringify(endpoint)}`);

  const deleted = await call(base, key, 'DELETE', `/${collection}/${id}`);
  check(deleted.status === 204, `DELETE /v1/${collection}/${id}: ${JSON.stringify(deleted)}`);
  const after = await call(base, key, 'GET', `/events?types=${record}.deleted`);
  check(
    after.status === 200 && after.body.data.some((event) => event.data.object.id === id),
    `no ${record}.deleted event for ${id}: ${JSON.stringify(after)}`,
  );
  process.stdout.write(
    `${collection}: demo record listed, created, ${type} on the feed, webhook endpoint for it, deleted\n`,
  );
}

// Like the tests' global setup: DATABASE_URL's server when set, otherwise a throwaway embedded one.
let stopDatabase = async () => undefined;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  const port = await freePort();
  const embedded = await startEmbeddedDatabase({
    dataDir: `.data/generator-service-postgres-${port}`,
    port,
    database: 'postgres',
    persistent: false,
  });
  stopDatabase = embedded.stop;
  serverUrl = embedded.url;
}
const scratch = `ppa_first_class_${process.pid}`;
const url = new URL(serverUrl);
url.pathname = `/${scratch}`;
try {
  await admin(serverUrl, `CREATE DATABASE "${scratch}"`);
  const service = startService(url.toString(), await freePort());
  try {
    const { base, key } = await service.ready;
    await exercise(base, key);
  } finally {
    await service.stop();
    await admin(serverUrl, `DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
  }
} finally {
  await stopDatabase();
}
