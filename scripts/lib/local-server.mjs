// Helpers shared by the scripts and the test harness that start local servers (the service, PostgreSQL,
// PgBouncer): a free port, and one statement run as the server's administrator.
import { createServer } from 'node:net';
import pg from 'pg';

/** A TCP port free on 127.0.0.1 right now (the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs one statement (e.g. CREATE or DROP DATABASE) on its own connection to `serverUrl`. */
export async function adminQuery(serverUrl, sql) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
