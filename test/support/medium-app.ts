import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pg from 'pg';
import { AppModule } from '../../apps/api/src/core/app.module.js';
import { loadConfig, ManualClock } from '@app/common';
import { ApiKeysService } from '../../apps/api/src/api-keys/index.js';
import { createTestDatabase, dropTestDatabase } from './test-app.js';

/**
 * The application's providers without HTTP, on a fresh database: the "medium" layer (test/medium/), between the
 * unit tests of pure functions and the end-to-end tests. A spec takes a service with `sut.get(WorkOrdersService)`
 * and calls it as a controller would, after validation; the database, the repositories and the transactions are
 * the real ones (as immich's `server/test/medium/` tests do). Time is a `ManualClock`.
 */
export interface MediumApp {
  /** A provider of the app, e.g. `get(WorkOrdersService)`. */
  get<T>(type: Type<T>): T;
  clock: ManualClock;
  /** A new team; answers its id. */
  createTeam(name?: string): Promise<string>;
  /** Reads (or plants) rows straight in the database, bypassing the services. */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function createMediumApp(): Promise<MediumApp> {
  const databaseUrl = await createTestDatabase();
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  let context: INestApplicationContext;
  try {
    // The same module tree as the API (apps/api/src/core/app.module.ts), without the HTTP server around it.
    context = await NestFactory.createApplicationContext(AppModule.forRoot({ config, databaseUrl, clock }), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    await dropTestDatabase(databaseUrl);
    throw error;
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return {
    get: (type) => context.get(type),
    clock,
    createTeam: async (name = 'Medium team') => (await context.get(ApiKeysService).createTeam(name)).teamId,
    sql: async (text, params) => (await pool.query(text, params)).rows,
    close: async () => {
      await pool.end();
      await context.close();
      await dropTestDatabase(databaseUrl);
    },
  };
}
