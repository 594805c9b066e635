import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { hashApiKey, newApiKey } from '../lib/api-key.js';
import type { SeededTeam, SeedManifest } from '../lib/manifest.js';
import { hashSeed, Rng } from '../lib/prng.js';
import {
  generateTeam,
  type Row,
  type TeamData,
  type TeamSize,
  type TeamTable,
  WORK_ORDER_COLUMNS,
} from './generate.js';

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

const COLUMNS: Record<TeamTable, readonly string[]> = {
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
  work_orders: WORK_ORDER_COLUMNS,
};

/** work_orders' row trigger that keeps work_order_counts (migration 1763800000000-work-order-counts). */
const COUNTS_TRIGGER = 'work_order_counts_track';

/** About how many characters of COPY text go to the connection at a time. */
const CHUNK_CHARS = 256 * 1024;

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

const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` as one field of COPY's text format: a backslash, newline, carriage return or tab would end or bend it. */
function escapeCopyText(text: string): string {
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (character) => TEXT_ESCAPES[character]) : text;
}

/** An array literal as pg writes a JS array for a bind parameter: every element quoted, `"` and `\` escaped. */
function arrayLiteral(items: readonly unknown[]): string {
  const elements = items.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
      throw new Error(`cannot COPY an array element of type ${typeof item}`);
    }
    return `"${String(item).replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${elements.join(',')}}`;
}

/**
 * One value as a field of COPY's text format, meaning what the same value bound to an INSERT's parameter meant:
 * NULL as `\N`, strings (timestamps and jsonb come as strings) escaped, numbers and booleans as pg sends them, a JS
 * array as a PostgreSQL array literal (then escaped like any text).
 */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return escapeCopyText(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot COPY the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return escapeCopyText(arrayLiteral(value));
  throw new Error(`cannot COPY a value of type ${typeof value}`);
}

/**
 * `COPY table FROM STDIN` (text format), the rows made as the connection takes them: the text is sent in chunks of
 * about CHUNK_CHARS, and the generator waits while the connection's buffer is full, so memory stays flat whatever
 * the table's size. Returns how many rows PostgreSQL stored.
 */
async function copyRows(
  client: pg.Client,
  table: TeamTable,
  rows: Iterable<Row>,
  progress: Progress,
  label: string,
): Promise<number> {
  const columns = COLUMNS[table];
  function* chunks(): Generator<string> {
    let chunk = '';
    let inChunk = 0;
    for (const row of rows) {
      if (row.length !== columns.length) throw new Error(`${table}: a row of ${row.length} values`);
      chunk += `${row.map(copyField).join('\t')}\n`;
      inChunk++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        progress.add(inChunk, `${label}: ${table}`);
        chunk = '';
        inChunk = 0;
      }
    }
    if (inChunk > 0) {
      yield chunk;
      progress.add(inChunk, `${label}: ${table}`);
    }
  }
  const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(chunks()), copy);
  return copy.rowCount;
}

/**
 * Runs `load` with `table`'s secondary indexes (those that back no constraint: the primary key and unique
 * constraints stay, and with them the checks) dropped, then builds them again from their own definitions, all in
 * the caller's transaction: a failure leaves the table as it was. One build over the loaded rows is cheaper than
 * keeping every index up to date row by row.
 */
async function withoutSecondaryIndexes<T>(client: pg.Client, table: TeamTable, load: () => Promise<T>): Promise<T> {
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT format('%I.%I', n.nspname, i.relname) AS name, pg_get_indexdef(i.oid) AS definition
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_namespace n ON n.oid = i.relnamespace
     WHERE x.indrelid = $1::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
     ORDER BY i.relname`,
    [table],
  );
  for (const { name } of indexes) await client.query(`DROP INDEX ${name}`);
  const result = await load();
  for (const { definition } of indexes) await client.query(definition);
  return result;
}

async function insertTeam(
  client: pg.Client,
  team: TeamData,
  progress: Progress,
  rebuildIndexes: boolean,
): Promise<SeededTeam> {
  const apiKey = newApiKey();
  const apiKeyId = randomUUID();
  const stored = new Map<TeamTable, number>();
  await client.query('BEGIN');
  await client.query('INSERT INTO teams (id, name, last_work_order_number, created_at) VALUES ($1, $2, $3, $4)', [
    team.id,
    team.name,
    // The counter must equal the highest number, or the service's next create would collide.
    team.workOrderCount,
    team.createdAt,
  ]);
  await client.query('INSERT INTO api_keys (team_id, id, name, key_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
    team.id,
    apiKeyId,
    'bench',
    hashApiKey(apiKey),
    team.createdAt,
  ]);
  for (const { table, rows } of team.tables) {
    const copy = (): Promise<number> => copyRows(client, table, rows, progress, team.name);
    if (table !== 'work_orders') {
      stored.set(table, await (rebuildIndexes ? withoutSecondaryIndexes(client, table, copy) : copy()));
      continue;
    }
    // The counts trigger would update one of a few count rows per work order, in this one transaction: each update
    // adds a version of that row that the next must step over (none can be pruned before the commit), so the load
    // slowed down as it went (quadratic: 100,000 work orders took over a minute, a million would take hours). It is
    // off for the COPY, in this transaction only, and the team's counts are written once from its rows, as the
    // migration that added the trigger wrote them.
    await client.query(`ALTER TABLE work_orders DISABLE TRIGGER ${COUNTS_TRIGGER}`);
    stored.set(table, await (rebuildIndexes ? withoutSecondaryIndexes(client, table, copy) : copy()));
    await client.query(`ALTER TABLE work_orders ENABLE TRIGGER ${COUNTS_TRIGGER}`);
    await client.query(
      `INSERT INTO work_order_counts AS c (team_id, status, priority, count)
       SELECT team_id, status, priority, count(*) FROM work_orders WHERE team_id = $1 GROUP BY team_id, status, priority
       ON CONFLICT (team_id, status, priority) DO UPDATE SET count = c.count + excluded.count`,
      [team.id],
    );
  }
  if (stored.get('work_orders') !== team.workOrderCount) throw new Error(`${team.name}: work orders missing`);
  await client.query('COMMIT');
  const count = (table: TeamTable): number => stored.get(table) ?? 0;
  return {
    teamId: team.id,
    name: team.name,
    apiKeyId,
    apiKey,
    counts: {
      units: count('units'),
      tenants: count('tenants'),
      tenantUnits: count('tenant_units'),
      landlords: count('landlords'),
      contractors: count('contractors'),
      workOrders: count('work_orders'),
    },
  };
}

/**
 * Adds one big team and SMALL_TEAM_COUNT small ones to the (migrated) database at `url`, with an API key each.
 * Teams are generated one at a time from their own seeded generator, their rows made as COPY sends them, so memory
 * stays flat whatever the scale (what later rows need is kept: the units' ids and times, who lives where).
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
    // For the big team's index builds (the trigram indexes' above all) and VACUUM: fewer passes over the rows.
    await client.query("SET maintenance_work_mem = '256MB'");
    const progress = new Progress(expected, log);
    const seeded: SeededTeam[] = [];
    for (const [index, plan] of plans.entries()) {
      const team = generateTeam(new Rng(hashSeed(seed, `team-${index}`)), plan.name, plan.size, plan.big);
      // The big team goes first, into empty tables: its rows are most of each table, so its secondary indexes are
      // built once after its COPY (12 s instead of 22 s at scale 1); a small team's rows go in with them in place.
      const stored = await insertTeam(client, team, progress, plan.big);
      seeded.push(stored);
      const { units, tenants, tenantUnits, landlords, contractors, workOrders } = stored.counts;
      const rows = units + tenants + tenantUnits + landlords + contractors + workOrders;
      if (plan.big) log(`big team ${team.id}: ${rows.toLocaleString('en-GB')} rows`);
    }
    log('VACUUM ANALYZE (planner statistics and visibility map, as a long-running database has them)');
    await client.query('VACUUM ANALYZE');
    // The seed's pages written out now, not by the checkpointer during the first scenario: at scale 10 (1.15 GB
    // written) the service's GET one, measured first, ran at 0.56 × the floor with p95 5.9 ms right after a seed,
    // and at 0.68 × with p95 4.5 ms on the same data later.
    log('CHECKPOINT (the seed written out before anything is measured)');
    await client.query('CHECKPOINT').catch((error: Error) => log(`CHECKPOINT not run: ${error.message}`));
    const [bigTeam, ...smallTeams] = seeded;
    return { dataVersion: DATA_VERSION, scale, seed, seededAt: new Date().toISOString(), bigTeam, smallTeams };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
