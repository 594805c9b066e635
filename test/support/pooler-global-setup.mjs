// `npm run test:pooler`: the usual setup (a server, a migrated template), then PgBouncer in transaction mode in
// front of that server. test-app.ts then gives each app its database through the pooler (DATABASE_URL),
// PostgreSQL itself as DATABASE_DIRECT_URL, and DB_POOLER=transaction.
import globalSetup from './global-setup.mjs';
import { startPgBouncer } from './pgbouncer.mjs';

export default async function poolerGlobalSetup() {
  await globalSetup();
  const pooler = await startPgBouncer(process.env.TEST_DATABASE_SERVER_URL);
  globalThis.__pgbouncerStop = pooler.stop;
  process.env.TEST_POOLER_URL = pooler.url;
}
