import { NestFactory } from '@nestjs/core';
import { AppConfig, DomainError, loadConfig } from '@app/common';
import { AccountsService } from '../../api/src/dashboard/accounts/index.js';
import { ApiKeysService } from '../../api/src/api-keys/index.js';
import { resolveDatabase, runPendingMigrations } from '@app/database';
import { CliModule } from './cli.module.js';
import { parseArgs, runCommand, USAGE, UsageError, type ParsedArgs } from './commands.js';

function printError(message: string): void {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
}

/** Standard input up to its end (or its first line), without the line break: a password is never an argument. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (12+ characters), then Enter and Ctrl-D: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const line = text.split(/\r?\n/)[0];
  if (line === '') throw new UsageError('the password is read from standard input, and it was empty');
  return line;
}

/** The command's result as one JSON line, against the server's database (the same config and resolution). */
async function run(args: ParsedArgs, config: AppConfig): Promise<number> {
  const database = await resolveDatabase(config);
  try {
    await runPendingMigrations(database.sessionUrl);
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(database.url, config), {
      logger: false,
      abortOnError: false,
    });
    try {
      const result = await runCommand(args, {
        keys: context.get(ApiKeysService),
        accounts: context.get(AccountsService),
        readPassword,
        warn: (message) => process.stderr.write(`${JSON.stringify({ warning: message })}\n`),
      });
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
      const asked = args.options.has('help') || args.words[0] === 'help';
      return asked ? 0 : 2;
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
