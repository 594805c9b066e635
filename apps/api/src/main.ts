import { ApiKeysService, loadConfig } from '@app/common';
import { resolveDatabase, runPendingMigrations } from '@app/database';
import { createApi } from './bootstrap.js';
import { DOCS_PATH, OPENAPI_PATH } from './configure-app.js';

const config = loadConfig();
const database = await resolveDatabase(process.env, (line) => {
  if (config.LOG_LEVEL === 'debug') process.stderr.write(`[embedded-postgres] ${line}\n`);
});
await runPendingMigrations(database.url);
const app = await createApi(config, database.url);
await app.listen(config.PORT);

const baseUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
if (!config.isProduction) {
  const keys = app.get(ApiKeysService);
  if ((await keys.countTeams()) === 0) {
    const demo = await keys.createTeam('Demo team');
    process.stdout.write(
      [
        '',
        'Created a demo team on this empty database.',
        `  teamId:  ${demo.teamId}`,
        `  API key: ${demo.apiKey}   (shown once; only its hash is stored)`,
        `  Try:     curl -H "Authorization: Bearer ${demo.apiKey}" ${baseUrl}/v1/contractors`,
        '',
      ].join('\n') + '\n',
    );
  }
}
process.stdout.write(
  `Property Portfolio API on ${baseUrl}/v1 — Swagger UI ${baseUrl}/${DOCS_PATH}, OpenAPI ${baseUrl}/${OPENAPI_PATH}\n`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: finishing in-flight requests and stopping\n`);
  // app.close() stops accepting connections and waits for in-flight requests before closing the pool.
  await app.close();
  await database.stop();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
