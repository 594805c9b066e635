import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { hashApiKey, newApiKey } from '../lib/api-key.js';
import type { SeededTeam, SeedManifest } from '../lib/manifest.js';
import { hashSeed, Rng } from '../lib/prng.js';
import { generateTeam, type Row, type TeamData, type TeamSize, WORK_ORDER_COLUMNS } from './generate.js';

/** The large team of the issue at scale 1; everything scales linearly with --scale. */
export const BIG_TEAM: TeamSize = {
  units: 10_000,
  tenants: 20_000,
  landlords: 400,
  contractors: 250,
  workOrders: 100_000,
};
export const SMALL_TEAM_COUNT = 36;
/** Bump when a change to the generators changes the rows a seed gives, so the runner re-seeds. */
export const DATA_VERSION = 1;

const COLUMNS = {
  units: [
    'team_id',
    'id',
    'address_line1',
    'address_line2',
    'city',
    'county',
    'country',
    'postcode',
    'area',
    'full_address',
    'created_at',
    'updated_at',
  ],
  tenants: ['team_id', 'id', 'first_name', 'last_name', 'email', 'phone_number', 'notes', 'created_at', 'updated_at'],
  tenant_units: ['team_id', 'id', 'tenant_id', 'unit_id', 'created_at'],
  landlords: [
    'team_id',
    'id',
    'name',
    'email',
    'phone_number',
    'full_address',
    'status',
    'notes',
    'created_at',
    'updated_at',
  ],
  contractors: [
    'team_id',
    'id',
    'company_name',
    'contact_name',
    'email',
    'phone_number',
    'full_address',
    'status',
    'trades',
    'coverage_postcodes',
    'certifications',
    'insurance',
    'notes',
    'created_at',
    'updated_at',
  ],
  work_orders: [...WORK_ORDER_COLUMNS],
} as const;

type Table = keyof typeof COLUMNS;

/** PostgreSQL takes at most 65,535 bind parameters per statement; batches stay well under. */
const MAX_PARAMETERS = 30_000;

export interface SeedOptions {
  scale: number;
  seed: number;
  log: (line: string) => void;
}

function scaled(n: number, scale: number): number {
  return Math.max(1, Math.round(n * scale));
}

/** A small team's size at scale 1. */
function smallTeamSize(rng: Rng): TeamSize {
  const units = rng.int(30, 300);
  return {
    units,
    tenants: Math.round((units * rng.int(14, 24)) / 10),
    landlords: rng.int(3, 25),
    contractors: rng.int(3, 30),
    workOrders: rng.int(100, 1500),
  };
}

function scaledSize(size: TeamSize, scale: number): TeamSize {
  return {
    units: scaled(size.units, scale),
    tenants: scaled(size.tenants, scale),
    landlords: scaled(size.landlords, scale),
    contractors: scaled(size.contractors, scale),
    workOrders: scaled(size.workOrders, scale),
  };
}

class Progress {
  private done = 0;
  private lastPrint = 0;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly log: (line: string) => void,
  ) {}

  add(rows: number, what: string): void {
    this.done += rows;
    const now = Date.now();
    if (now - this.lastPrint < 1000 && this.done < this.total) return;
    this.lastPrint = now;
    const percent = ((100 * this.done) / this.total).toFixed(0).padStart(3);
    const seconds = ((now - this.started) / 1000).toFixed(1);
    this.log(
      `${percent}%  ${this.done.toLocaleString('en-GB')}/${this.total.toLocaleString('en-GB')} rows  ${seconds}s  (${what})`,
    );
  }
}

/** Multi-row INSERTs; the next batch's SQL is built while the previous one runs. */
async function insertRows(
  client: pg.Client,
  table: Table,
  rows: Row[],
  progress: Progress,
  label: string,
): Promise<void> {
  const columns = COLUMNS[table];
  const perBatch = Math.floor(MAX_PARAMETERS / columns.length);
  let pending: Promise<unknown> | undefined;
  let pendingCount = 0;
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows.slice(start, start + perBatch);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const first = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${first + i + 1}`).join(',')})`;
    });
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(',')}`;
    if (pending) {
      await pending;
      progress.add(pendingCount, `${label}: ${table}`);
    }
    pending = client.query(sql, values);
    pendingCount = batch.length;
  }
  if (pending) {
    await pending;
    progress.add(pendingCount, `${label}: ${table}`);
  }
}

async function insertTeam(client: pg.Client, team: TeamData, progress: Progress): Promise<SeededTeam> {
  const apiKey = newApiKey();
  const apiKeyId = randomUUID();
  await client.query('BEGIN');
  await client.query('INSERT INTO teams (id, name, last_work_order_number, created_at) VALUES ($1, $2, $3, $4)', [
    team.id,
    team.name,
    // The counter must equal the highest number, or the service's next create would collide.
    team.workOrders.length,
    team.createdAt,
  ]);
  await client.query('INSERT INTO api_keys (team_id, id, name, key_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
    team.id,
    apiKeyId,
    'bench',
    hashApiKey(apiKey),
    team.createdAt,
  ]);
  await insertRows(client, 'units', team.units, progress, team.name);
  await insertRows(client, 'tenants', team.tenants, progress, team.name);
  await insertRows(client, 'tenant_units', team.tenantUnits, progress, team.name);
  await insertRows(client, 'landlords', team.landlords, progress, team.name);
  await insertRows(client, 'contractors', team.contractors, progress, team.name);
  await insertRows(client, 'work_orders', team.workOrders, progress, team.name);
  await client.query('COMMIT');
  return {
    teamId: team.id,
    name: team.name,
    apiKeyId,
    apiKey,
    counts: {
      units: team.units.length,
      tenants: team.tenants.length,
      tenantUnits: team.tenantUnits.length,
      landlords: team.landlords.length,
      contractors: team.contractors.length,
      workOrders: team.workOrders.length,
    },
  };
}

function rowCount(team: TeamData): number {
  return (
    team.units.length +
    team.tenants.length +
    team.tenantUnits.length +
    team.landlords.length +
    team.contractors.length +
    team.workOrders.length
  );
}

/**
 * Adds one big team and SMALL_TEAM_COUNT small ones to the (migrated) database at `url`, with an API key each.
 * Teams are generated one at a time from their own seeded generator, so memory stays bounded by the big team.
 */
export async function seedDatabase(url: string, { scale, seed, log }: SeedOptions): Promise<SeedManifest> {
  const plans = [{ name: 'Bench Big Lettings', size: scaledSize(BIG_TEAM, scale), big: true }];
  const sizes = new Rng(hashSeed(seed, 'small-team-sizes'));
  for (let i = 1; i <= SMALL_TEAM_COUNT; i++) {
    const name = `Bench Small Team ${String(i).padStart(2, '0')}`;
    plans.push({ name, size: scaledSize(smallTeamSize(sizes), scale), big: false });
  }
  const expected = plans.reduce(
    (sum, { size }) => sum + size.units + size.tenants * 2 + size.landlords + size.contractors + size.workOrders,
    0,
  );
  log(`seeding ${plans.length} teams (scale ${scale}, seed ${seed}): about ${expected.toLocaleString('en-GB')} rows`);

  const client = new pg.Client({ connectionString: url, application_name: 'bench-seed' });
  await client.connect();
  try {
    // Bench data can be regenerated at will: no need to wait for each commit to reach the disk.
    await client.query('SET synchronous_commit = off');
    const progress = new Progress(expected, log);
    const seeded: SeededTeam[] = [];
    for (const [index, plan] of plans.entries()) {
      const team = generateTeam(new Rng(hashSeed(seed, `team-${index}`)), plan.name, plan.size, plan.big);
      seeded.push(await insertTeam(client, team, progress));
      if (plan.big) log(`big team ${team.id}: ${rowCount(team).toLocaleString('en-GB')} rows`);
    }
    log('VACUUM ANALYZE (planner statistics and visibility map, as a long-running database has them)');
    await client.query('VACUUM ANALYZE');
    const [bigTeam, ...smallTeams] = seeded;
    return { dataVersion: DATA_VERSION, scale, seed, seededAt: new Date().toISOString(), bigTeam, smallTeams };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
