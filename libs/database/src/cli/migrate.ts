import { relative } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '@app/common';
import { createMigration, MIGRATION_NAME } from '../create-migration.js';
import { dataSourceOptions } from '../data-source-options.js';
import { resolveDatabase } from '../embedded-postgres.js';
import { runPendingMigrations } from '../migrate.js';

/** The migrations' sources, from the repository root (where npm runs scripts). */
const MIGRATIONS_DIR = 'libs/database/src/migrations';

/**
 * `npm run migration:run | migration:revert`, against DATABASE_DIRECT_URL (when DATABASE_URL is a pooler's),
 * DATABASE_URL or the embedded database (started for the
 * duration when it is not already running); `npm run migration:create -- <Name>` writes an empty migration.
 */
async function main(): Promise<number> {
  const [command, name] = process.argv.slice(2);
  if (command === 'create') {
    if (!name || !MIGRATION_NAME.test(name)) {
      process.stderr.write('usage: npm run migration:create -- <PascalCaseName>\n');
      return 2;
    }
    const path = await createMigration(MIGRATIONS_DIR, name, Date.now());
    process.stdout.write(
      `${relative(process.cwd(), path)} written and added to the migrations' index: fill in up() and down()\n`,
    );
    return 0;
  }
  const database = await resolveDatabase(loadConfig());
  try {
    if (command === 'run') {
      const applied = await runPendingMigrations(database.sessionUrl);
      process.stdout.write(`${applied.length} migration(s) applied${applied.map((name) => `\n  ${name}`).join('')}\n`);
      return 0;
    }
    const dataSource = await new DataSource(dataSourceOptions(database.sessionUrl)).initialize();
    try {
      if (command === 'revert') {
        await dataSource.undoLastMigration({ transaction: 'each' });
        process.stdout.write('Reverted the last migration\n');
        return 0;
      }
      process.stderr.write('usage: migrate run | revert | create <Name>\n');
      return 2;
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.stop();
  }
}

process.exitCode = await main();
