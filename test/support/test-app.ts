import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { createApi } from '../../apps/api/src/core/bootstrap.js';
import { openApiDocumentOf } from '../../apps/api/src/core/configure-app.js';
import { AppConfig, loadConfig, ManualClock, type Logger } from '@app/common';
import { ApiKeysService, type CreatedKey } from '../../apps/api/src/api-keys/index.js';
import { ResponseConformance, type OpenApiDocument } from './openapi-conformance.js';

export interface TestAppOptions {
  /** Environment-style settings (e.g. RATE_LIMIT_PER_MINUTE); tests default to limits that never bind. */
  config?: Partial<AppConfig>;
  /** A clock the test moves by hand; the system clock otherwise. */
  clock?: ManualClock;
  /** Reuse a database made by an earlier `createTestDatabase()` (several app instances on one database). */
  databaseUrl?: string;
  /** Where the app logs (e.g. `createLogger('info', stream)` to read the lines); silent otherwise. */
  logger?: Logger;
}

export interface TestApp {
  app: NestExpressApplication;
  /** The database itself (under `npm run test:pooler` the app reaches it through the pooler: `pooledUrlOf`). */
  databaseUrl: string;
  /** Requests to the app; every response is checked against the OpenAPI document the app serves. */
  http: () => TestAgent;
  /** A new team with one key. */
  createTeam(name?: string): Promise<CreatedKey>;
  /**
   * Runs SQL against this app's database, bypassing the API (for assertions on stored state, or to plant rows
   * the API cannot make). A statement that may write then moves every team's change version, as an operator
   * must after changing records by hand (docs/operations.md), so lists do not answer from what they remember.
   */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  /** `sql` without moving the change versions: a write the instances are not told about. */
  unannouncedSql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const created: string[] = [];

/** A new version for every team (a new `xmin` for each `event_sequences` row): see docs/operations.md. */
const ANNOUNCE_CHANGE = 'UPDATE event_sequences SET last_seq = last_seq';

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

/**
 * The URL an app is given for a test database: the database itself, or under `npm run test:pooler` the same
 * database through PgBouncer (`TEST_POOLER_URL`, transaction mode).
 */
export function pooledUrlOf(databaseUrl: string): string {
  const poolerUrl = process.env.TEST_POOLER_URL;
  if (!poolerUrl) return databaseUrl;
  const url = new URL(databaseUrl);
  const pooler = new URL(poolerUrl);
  url.hostname = pooler.hostname;
  url.port = pooler.port;
  return url.toString();
}

/** Under `npm run test:pooler`, the pooler's connections to a database about to be dropped are closed first. */
async function closePooledConnections(name: string): Promise<void> {
  const poolerUrl = process.env.TEST_POOLER_URL;
  if (!poolerUrl) return;
  const url = new URL(poolerUrl);
  url.pathname = '/pgbouncer';
  // The admin console (simple queries only): KILL closes the database's client and server connections at once.
  const console = new pg.Client({ connectionString: url.toString() });
  await console.connect();
  try {
    await console.query(`KILL "${name}"`);
  } catch (error) {
    // A database no app reached through the pooler is unknown to it.
    if (!/no such database/i.test((error as Error).message)) throw error;
  } finally {
    await console.end();
  }
}

/** Drops a database made by `createTestDatabase()`; the spec that made one for several apps calls it. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await closePooledConnections(name);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
  await admin.connect();
  try {
    // Connections still saying goodbye (a pool's clients end asynchronously) would be killed mid-close by FORCE,
    // and the test process would see their 57P01 as an unhandled error: give them up to 2 s to go first.
    for (let attempt = 0; attempt < 40; attempt++) {
      const { rows } = await admin.query<{ sessions: number }>(
        'SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if ((rows[0]?.sessions ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = options.databaseUrl === undefined;
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const appUrl = pooledUrlOf(databaseUrl);
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
      AUTH_FAILURES_PER_MINUTE: '1000000',
      // Behind the pooler (npm run test:pooler), as the contract's "Behind a transaction-pooling proxy" says.
      ...(appUrl === databaseUrl
        ? {}
        : { DATABASE_URL: appUrl, DATABASE_DIRECT_URL: databaseUrl, DB_POOLER: 'transaction' }),
    },
    options.config,
  );
  // The same assembly as `npm start` (apps/api/src/main.ts), not a test-only variant of it.
  const app = await createApi(config, appUrl, { clock: options.clock, logger: options.logger });

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // An idle connection terminated by the server (a fault test) is dropped by the pool; without a listener its
  // 'error' would be an unhandled error of the test process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const document = openApiDocumentOf(app);
  if (!document) throw new Error('configureApp built no OpenAPI document');
  // The served document is this object serialised; reading it here keeps the request logs and limits untouched.
  const conformance = new ResponseConformance(JSON.parse(JSON.stringify(document)) as OpenApiDocument);
  return {
    app,
    databaseUrl,
    http: () => conformingAgent(app, conformance),
    createTeam: (name = 'Test team') => app.get(ApiKeysService).createTeam(name),
    sql: async (text, params) => {
      const { rows } = await pool.query(text, params);
      if (!/^\s*SELECT\b/i.test(text)) await pool.query(ANNOUNCE_CHANGE);
      return rows;
    },
    unannouncedSql: async (text, params) => (await pool.query(text, params)).rows,
    close: async () => {
      await pool.end();
      await app.close();
      if (ownsDatabase) await dropTestDatabase(databaseUrl);
    },
  };
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options'];

/**
 * supertest's agent with one assertion added to every request it makes: the response conforms to the document
 * (`.expect(fn)` runs when the response arrives, before the test's own assertions, and fails the request).
 */
function conformingAgent(app: NestExpressApplication, conformance: ResponseConformance): TestAgent {
  const agent = request(app.getHttpServer()) as unknown as Record<string, unknown>;
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !HTTP_METHODS.includes(property) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = (value as (url: string, ...rest: unknown[]) => request.Test)(url, ...rest);
        return test.expect((response) => conformance.assert(test.method, url, response));
      };
    },
  }) as unknown as TestAgent;
}

/** What a test needs of a team: its id (for direct SQL) and a key (for requests). */
export type Team = Pick<CreatedKey, 'teamId' | 'apiKey'>;

export const bearer = (key: { apiKey: string } | string): [string, string] => [
  'Authorization',
  `Bearer ${typeof key === 'string' ? key : key.apiKey}`,
];
