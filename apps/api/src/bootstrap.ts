import { ConsoleLogger, LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@app/common';
import { AppModule } from './app.module.js';
import { answerUnmatchedRoutes, configureApp } from './configure-app.js';
import { JsonExpressAdapter } from './json-express-adapter.js';

const NEST_LEVELS: Record<AppConfig['LOG_LEVEL'], NestLogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
  silent: [],
};

/** Creates, configures and initialises the API (not yet listening). */
export async function createApi(config: AppConfig, databaseUrl: string): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl }),
    new JsonExpressAdapter(),
    {
      bodyParser: false,
      logger: new ConsoleLogger({ json: true, logLevels: NEST_LEVELS[config.LOG_LEVEL] }),
    },
  );
  configureApp(app, config);
  await app.init();
  answerUnmatchedRoutes(app);
  return app;
}
