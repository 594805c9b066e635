import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import {
  answerClientErrors,
  AppConfig,
  Clock,
  createLogger,
  PinoNestLogger,
  serverSettingsWarnings,
  type Logger,
} from '@app/common';
import { AppModule } from './app.module.js';
import { answerUnmatchedRoutes, configureApp } from './configure-app.js';
import { JsonExpressAdapter } from './json-express-adapter.js';

export interface ApiOptions {
  /** The source of "now"; tests pass a `ManualClock`. Default: the system clock. */
  clock?: Clock;
  /** Where request lines and Nest's own messages go. Default: JSON lines on stdout at `LOG_LEVEL`. */
  logger?: Logger;
}

/**
 * The one assembly of the API, used by `main.ts` and by every end-to-end test: creates, configures and
 * initialises the application on `databaseUrl` (migrated already), not yet listening. Behind a transaction
 * pooler `databaseUrl` is the pooler's, and `config` says so (DB_POOLER, DATABASE_DIRECT_URL for sessions).
 */
export async function createApi(
  config: AppConfig,
  databaseUrl: string,
  { clock, logger = createLogger(config.LOG_LEVEL) }: ApiOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl, clock }),
    new JsonExpressAdapter(),
    // abortOnError false: a failure is thrown to the caller (which stops the database), not process.exit().
    { bodyParser: false, logger: new PinoNestLogger(logger), abortOnError: false },
  );
  try {
    configureApp(app, config, logger);
    await app.init();
    // What PostgreSQL must provide itself (behind a transaction pooler, the statement timeout).
    for (const warning of await serverSettingsWarnings(app.get(DataSource), config.DB_STATEMENT_TIMEOUT_MS)) {
      logger.warn(warning);
    }
  } catch (error) {
    await app.close();
    throw error;
  }
  answerUnmatchedRoutes(app);
  answerClientErrors(app.getHttpServer());
  return app;
}
