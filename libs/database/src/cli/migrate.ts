import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '@app/common';
import { dataSourceOptions } from '../data-source-options.js';
import { resolveDatabase } from '../embedded-postgres.js';
import { runPendingMigrations } from '../migrate.js';

/**
 * `npm run migration:run | migration:revert | migration:generate -- <Name>`, against DATABASE_URL or the
 * embedded database (started for the duration when it is not already running).
 */
async function main(): Promise<number> {
  const [command, name] = process.argv.slice(2);
  const database = await resolveDatabase(loadConfig());
  try {
    if (command === 'generate') {
      if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
        process.stderr.write('usage: npm run migration:generate -- <PascalCaseName>\n');
        return 2;
      }
      const cli = createRequire(import.meta.url).resolve('typeorm/cli.js');
      const result = spawnSync(
        process.execPath,
        [cli, 'migration:generate', '-d', 'dist/ormconfig.js', join('libs/database/src/migrations', name)],
        { stdio: 'inherit', env: { ...process.env, DATABASE_URL: database.url } },
      );
      process.stdout.write('Add the new class to libs/database/src/migrations/index.ts.\n');
      return result.status ?? 1;
    }
    if (command === 'run') {
      const applied = await runPendingMigrations(database.url);
      process.stdout.write(`${applied.length} migration(s) applied${applied.map((name) => `\n  ${name}`).join('')}\n`);
      return 0;
    }
    const dataSource = await new DataSource(dataSourceOptions(database.url)).initialize();
    try {
      if (command === 'revert') {
        await dataSource.undoLastMigration({ transaction: 'each' });
        process.stdout.write('Reverted the last migration\n');
        return 0;
      }
      process.stderr.write('usage: migrate run | revert | generate <Name>\n');
      return 2;
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.stop();
  }
}

process.exitCode = await main();
