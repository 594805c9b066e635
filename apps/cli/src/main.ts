import { NestFactory } from '@nestjs/core';
import { ApiKeysService, AppConfig, DomainError, loadConfig } from '@app/common';
import { resolveDatabase, runPendingMigrations } from '@app/database';
import { CliModule } from './cli.module.js';
import { parseArgs, runCommand, USAGE, UsageError, type ParsedArgs } from './commands.js';

function printError(message: string): void {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
}

/** The command's result as one JSON line, against the server's database (the same config and resolution). */
async function run(args: ParsedArgs, config: AppConfig): Promise<number> {
  const database = await resolveDatabase(config);
  try {
    await runPendingMigrations(database.url);
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(database.url), {
      logger: false,
      abortOnError: false,
    });
    try {
      const result = await runCommand(args, context.get(ApiKeysService));
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    } finally {
      await context.close();
    }
  } finally {
    // Also after a failure: an embedded database this command started must not outlive it.
    await database.stop();
  }
}

/**
 * Admin CLI: teams and API keys. Prints exactly one JSON line on stdout; failures print `{"error": …}` on
 * stderr and exit non-zero (2 for usage errors).
 */
async function main(): Promise<number> {
  let args: ParsedArgs;
  let config: AppConfig;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.words.length === 0 || args.words[0] === 'help' || args.options.has('help')) {
      process.stdout.write(`${USAGE}\n`);
      return args.words.length === 0 ? 2 : 0;
    }
  } catch (error) {
    printError((error as Error).message);
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    config = loadConfig();
  } catch (error) {
    printError((error as Error).message);
    return 1;
  }

  try {
    return await run(args, config);
  } catch (error) {
    const message = error instanceof UsageError || error instanceof DomainError ? error.message : String(error);
    printError(message);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main();
