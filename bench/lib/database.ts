import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import pg from 'pg';

/** The repository root: this file runs from dist/bench/lib/. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The part of the compiled `@app/database` library the bench uses (typed here: dist/ has no declarations). */
interface EmbeddedDatabaseOptions {
  dataDir: string;
  port: number;
  database: string;
  persistent?: boolean;
}
interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}
interface DatabaseLibrary {
  startEmbeddedDatabase(options: EmbeddedDatabaseOptions, log?: (line: string) => void): Promise<RunningDatabase>;
  embeddedUrl(options: EmbeddedDatabaseOptions, database?: string): string;
  runPendingMigrations(url: string): Promise<string[]>;
}

async function databaseLibrary(): Promise<DatabaseLibrary> {
  const path = resolve(ROOT, 'dist/libs/database/src/index.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/ensure-build.mjs\` first`);
  return (await import(pathToFileURL(path).href)) as DatabaseLibrary;
}

/** The benchmark's own cluster, apart from the development one so a big seed never lands in everyday data. */
export const BENCH_CLUSTER = {
  dataDir: resolve(ROOT, process.env.BENCH_PG_DIR ?? '.data/bench-postgres'),
  port: Number(process.env.BENCH_PG_PORT ?? 54331),
};

/** One database per scale and seed, so smoke runs and full runs keep their data side by side. */
export function benchDatabaseName(scale: number, seed: number): string {
  return `bench_s${String(scale).replace(/[^0-9]/g, '_')}_r${seed}`;
}

export interface BenchDatabase {
  url: string;
  /** A name for the seed manifest: the database name, or a hash of DATABASE_URL. */
  label: string;
  /** True when this is the dedicated embedded cluster, which the bench may drop and re-create. */
  owned: boolean;
  /** The cluster's postmaster, whose children's CPU the load results count (the embedded cluster only). */
  postmasterPid?: number;
  stop(): Promise<void>;
}

/** DATABASE_URL when given; otherwise the bench cluster (started if need be) and the database for this scale and seed. */
export async function openBenchDatabase(
  scale: number,
  seed: number,
  databaseUrl: string | undefined,
  log: (line: string) => void,
  /** Receives the cluster's own log output, when this process is the one that starts the cluster. */
  serverLog?: (text: string) => void,
): Promise<BenchDatabase> {
  if (databaseUrl) {
    const { createHash } = await import('node:crypto');
    const label = `url-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 12)}`;
    return { url: databaseUrl, label, owned: false, stop: async () => undefined };
  }
  const library = await databaseLibrary();
  const options = { ...BENCH_CLUSTER, database: benchDatabaseName(scale, seed) };
  log(`embedded PostgreSQL: ${options.dataDir} on port ${options.port}, database ${options.database}`);
  const running = await library.startEmbeddedDatabase(options, serverLog);
  const postmasterPid = Number(readFileSync(join(options.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: running.url,
    label: options.database,
    owned: true,
    postmasterPid: Number.isInteger(postmasterPid) && postmasterPid > 0 ? postmasterPid : undefined,
    stop: () => running.stop(),
  };
}

export async function migrate(url: string): Promise<string[]> {
  return (await databaseLibrary()).runPendingMigrations(url);
}

/** Drops and re-creates a database of the bench cluster (never one named by DATABASE_URL). */
export async function recreateOwnedDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop ${name}: not a bench database`);
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}
