import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { AppModule } from '../../apps/api/src/app.module.js';
import { answerUnmatchedRoutes, configureApp } from '../../apps/api/src/configure-app.js';
import { JsonExpressAdapter } from '../../apps/api/src/json-express-adapter.js';
import { ApiKeysService, AppConfig, Clock, loadConfig, ManualClock, SystemClock, type CreatedKey } from '@app/common';

export interface TestAppOptions {
  /** Environment-style settings (e.g. RATE_LIMIT_PER_MINUTE); tests default to limits that never bind. */
  config?: Partial<AppConfig>;
  /** A clock the test moves by hand; the system clock otherwise. */
  clock?: ManualClock;
  /** Reuse a database made by an earlier `createTestDatabase()` (several app instances on one database). */
  databaseUrl?: string;
}

export interface TestApp {
  app: NestExpressApplication;
  databaseUrl: string;
  http: () => TestAgent;
  /** A new team with one key. */
  createTeam(name?: string): Promise<CreatedKey>;
  /** Runs SQL against this app's database, bypassing the API (for assertions on stored state). */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const created: string[] = [];

/** A fresh database copied from the migrated template: each spec file is isolated by construction. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (!serverUrl || !template)
    throw new Error('run the tests through `npm test` (jest globalSetup prepares the database)');
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'ppa_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createTestDatabase()`; the spec that made one for several apps calls it. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = options.databaseUrl === undefined;
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    },
    options.config,
  );
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, databaseUrl })] })
    .overrideProvider(Clock)
    .useValue(options.clock ?? new SystemClock())
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new JsonExpressAdapter(), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app, config);
  await app.init();
  answerUnmatchedRoutes(app);

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return {
    app,
    databaseUrl,
    http: () => request(app.getHttpServer()),
    createTeam: (name = 'Test team') => app.get(ApiKeysService).createTeam(name),
    sql: async (text, params) => (await pool.query(text, params)).rows,
    close: async () => {
      await pool.end();
      await app.close();
      if (ownsDatabase) await dropTestDatabase(databaseUrl);
    },
  };
}

/** What a test needs of a team: its id (for direct SQL) and a key (for requests). */
export type Team = Pick<CreatedKey, 'teamId' | 'apiKey'>;

export const bearer = (key: { apiKey: string } | string): [string, string] => [
  'Authorization',
  `Bearer ${typeof key === 'string' ? key : key.apiKey}`,
];
