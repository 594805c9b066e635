// `npm run seed:bench -- --scale 1 --seed 1`: fills DATABASE_URL, or the bench's own embedded cluster, with
// realistic data and writes the keys the runner needs to .data/bench-seed-<database>.json.
import { numberArg, parseArgs } from './lib/args.js';
import { migrate, openBenchDatabase, recreateOwnedDatabase } from './lib/database.js';
import { writeManifest } from './lib/manifest.js';
import { seedDatabase } from './seed/seed-database.js';

const log = (line: string): void => void process.stdout.write(`[seed] ${line}\n`);

const args = parseArgs(process.argv.slice(2), { scale: 'value', seed: 'value' });
const scale = numberArg(args, 'scale', 1, (n) => n > 0 && n <= 10);
const seed = numberArg(args, 'seed', 1, (n) => Number.isInteger(n) && n >= 0);

const started = Date.now();
const database = await openBenchDatabase(scale, seed, process.env.DATABASE_URL, log);
// The embedded cluster does not stop itself when this process ends: on Ctrl-C, stop it first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void database.stop().finally(() => process.exit(130)));
}
try {
  // The bench's own database starts empty each time, so it holds exactly one seeded data set.
  if (database.owned) await recreateOwnedDatabase(database.url);
  const applied = await migrate(database.url);
  if (applied.length > 0) log(`applied migrations: ${applied.join(', ')}`);
  const manifest = await seedDatabase(database.url, { scale, seed, log });
  const path = writeManifest(database.label, manifest);
  // maxRSS is in KiB: the seeder's own peak (PostgreSQL's processes are not counted).
  const peak = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)}s (seeder's peak RSS ${peak} MiB); keys in ${path}`);
  log(`big team ${manifest.bigTeam.teamId}: ${JSON.stringify(manifest.bigTeam.counts)}`);
} finally {
  await database.stop();
}
