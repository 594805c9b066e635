import { NestFactory } from '@nestjs/core';
import { ApiKeysService, DomainError } from '@app/common';
import { resolveDatabase, runPendingMigrations } from '@app/database';
import { CliModule } from './cli.module.js';
import { parseArgs, runCommand, USAGE, UsageError } from './commands.js';

/**
 * Admin CLI: teams and API keys. Prints exactly one JSON line on stdout; failures print `{"error": …}` on
 * stderr and exit non-zero (2 for usage errors).
 */
async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.words.length === 0 || args.words[0] === 'help' || args.options.has('help')) {
      process.stdout.write(`${USAGE}\n`);
      return args.words.length === 0 ? 2 : 0;
    }
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n${USAGE}\n`);
    return 2;
  }

  const database = await resolveDatabase(process.env);
  await runPendingMigrations(database.url);
  const context = await NestFactory.createApplicationContext(CliModule.forRoot(database.url), { logger: false });
  try {
    const result = await runCommand(args, context.get(ApiKeysService));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof UsageError || error instanceof DomainError ? error.message : String(error);
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await context.close();
    await database.stop();
  }
}

process.exitCode = await main();
