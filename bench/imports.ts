// Issue 25's benchmark: a 10,000-unit and a 50,000-work-order import on the service (time, rows, peak RSS), the
// API's read latency during an import against idle, and the service's memory through a 100,000-row CSV export.
// See docs/performance.md, "Imports and exports".
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import type { Fixtures } from './fixtures.js';
import { hashApiKey, newApiKey } from './lib/api-key.js';
import { drive, type LoadResult } from './lib/load.js';
import { watchPeak, type PeakSource } from './lib/memory.js';
import { memoryMiB, type ServerUnderTest } from './lib/servers.js';

const MIB = 1024 * 1024;

/** The targets of issue 25, checked in full runs. */
export const IMPORT_TARGETS = {
  /** 10,000 units, as one CSV import: from the POST to `succeeded`, at most this many seconds. */
  unitsSeconds: 60,
  /** 50,000 work orders, as one CSV import referencing the units by `unitExternalRef`. */
  workOrdersSeconds: 300,
  /** The service's peak RSS during either import and the exports, at most this many bytes (200 MB). */
  peakRssBytes: 200_000_000,
  /** The read scenario's p95 while the work orders import, at most this many times its p95 idle. */
  readP95Ratio: 2,
  /**
   * "Flat" memory through the large export, which runs right after the small one (a tenth of the rows): its peak
   * RSS exceeds the small export's peak by less than this, and its RSS at 100 % of its rows exceeds that at 25 % by
   * less than this. (Each export's rise over its own RSS before would flatter the second: what the first left for
   * the collector raises the second's starting point.)
   */
  exportFlatBytes: 20_000_000,
} as const;

/** The import's limits (CONTRACT "Imports and exports"): a body over them would be refused with 413. */
const MAX_IMPORT_ROWS = 50_000;
const MAX_IMPORT_BYTES = 20 * MIB;

/** The read scenario measured idle and during the import: GET one work order, at a steady rate. */
export const READ_RATE = 50;
const READ_CONNECTIONS = 5;

/** Names of the teams the check creates; one left by an interrupted run is deleted at the next. */
const TEAM_PREFIX = 'bench import check';

export interface ImportSizes {
  units: number;
  workOrders: number;
  /** Seconds of the read scenario, idle and during the work orders' import. */
  readSeconds: number;
}

export interface ImportRun {
  resource: 'units' | 'work-orders';
  rows: number;
  bodyBytes: number;
  /** From sending the POST to the poll that saw the final status. */
  seconds: number;
  status: string;
  createdCount: number;
  updatedCount: number;
  failedCount: number;
  /** The service's VmRSS just before the POST, MiB. */
  rssBeforeMiB: number;
  /** Its peak RSS from the POST to the final status: VmHWM after resetting it, or sampled every 50 ms. */
  peakMiB: number;
  peakFrom: PeakSource;
}

export interface ExportRun {
  query: string;
  /** Data rows read (the header row not counted), and the rows the team has for that query. */
  rows: number;
  expectedRows: number;
  bytes: number;
  seconds: number;
  status: number;
  rssBeforeMiB: number;
  peakMiB: number;
  peakFrom: PeakSource;
  /** The service's VmRSS when the bench had read 25, 50, 75 and 100 % of the rows, MiB. */
  rssAtQuartersMiB: number[];
}

export interface ImportCheckResult {
  units: ImportRun;
  workOrders: ImportRun;
  readIdle: LoadResult;
  readDuringImport: LoadResult;
  /** Whether the work orders' import was still running when the read load during it ended. */
  readWithinImport: boolean;
  smallExport: ExportRun;
  largeExport: ExportRun;
  failures: string[];
}

const pause = (ms: number): Promise<void> => new Promise((settled) => setTimeout(settled, ms));

/**
 * Deletes teams and every row of theirs (ON DELETE CASCADE), their work orders first: the work-order counter's
 * trigger would otherwise write the counts of a team being deleted and fail its foreign key.
 */
async function deleteTeams(client: pg.Client, where: string, value: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`DELETE FROM work_orders WHERE team_id IN (SELECT id FROM teams WHERE ${where})`, [value]);
    await client.query(`DELETE FROM teams WHERE ${where}`, [value]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** A team of its own, with a key, created in SQL as the seed creates its teams; `drop` deletes it and its rows. */
async function freshTeam(url: string): Promise<{ teamId: string; apiKey: string; drop: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const teamId = randomUUID();
  const apiKey = newApiKey();
  try {
    // Every row of a team goes with it (ON DELETE CASCADE): a team an interrupted run left behind goes first.
    await deleteTeams(client, 'name LIKE $1', `${TEAM_PREFIX}%`);
    await client.query('INSERT INTO teams (id, name) VALUES ($1, $2)', [teamId, `${TEAM_PREFIX} ${teamId}`]);
    await client.query('INSERT INTO api_keys (team_id, id, name, key_hash) VALUES ($1, $2, $3, $4)', [
      teamId,
      randomUUID(),
      'bench imports',
      hashApiKey(apiKey),
    ]);
  } finally {
    await client.end();
  }
  const drop = async (): Promise<void> => {
    const dropper = new pg.Client({ connectionString: url });
    await dropper.connect();
    try {
      await deleteTeams(dropper, 'id = $1', teamId);
      // The deleted rows' dead tuples would otherwise be in the way of the scenarios that follow.
      await dropper.query(
        'VACUUM ANALYZE units, work_orders, events, record_history, imports, import_rows, import_errors',
      );
    } finally {
      await dropper.end();
    }
  };
  return { teamId, apiKey, drop };
}

const CITIES = [
  ['Leeds', 'LS1 4AP'],
  ['Bristol', 'BS1 5TR'],
  ['Manchester', 'M1 2AB'],
  ['Glasgow', 'G2 1DU'],
  ['Cardiff', 'CF10 1EP'],
] as const;

/** `count` units as CSV, external ids `BENCH-U-1` … (the same on every run). */
export function unitsCsv(count: number): Buffer {
  const lines = ['externalRef,addressLine1,addressLine2,city,postcode,country'];
  for (let i = 1; i <= count; i++) {
    const [city, postcode] = CITIES[i % CITIES.length];
    lines.push(`BENCH-U-${i},"${(i % 97) + 1} Import Street","Flat ${(i % 12) + 1}",${city},${postcode},GB`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const TITLES = [
  'Leaking tap in kitchen',
  'Boiler not firing',
  'Broken window latch',
  'Damp in bathroom',
  'No hot water',
];
const STATUSES = ['completed', 'completed', 'completed', 'in_progress', 'reported'] as const;

/** `count` work orders as CSV, each at one of the `units` units by `unitExternalRef`: a migrated history. */
export function workOrdersCsv(count: number, units: number): Buffer {
  const lines = ['externalRef,title,description,priority,status,unitExternalRef'];
  for (let i = 1; i <= count; i++) {
    lines.push(
      `BENCH-W-${i},${TITLES[i % TITLES.length]},"Reported by the tenant, job ${i} of the old system",` +
        `${i % 4},${STATUSES[i % STATUSES.length]},BENCH-U-${(i % units) + 1}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

interface ImportBody {
  id: string;
  status: string;
  processedRows: number;
  createdCount: number;
  updatedCount: number;
  failedCount: number;
}

async function api<T>(server: ServerUnderTest, apiKey: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${apiKey}`, ...(init.headers as Record<string, string> | undefined) },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Posts one CSV import and polls it every 100 ms until its status is final; `whileRunning` is called once the
 * import has committed its first batch, and awaited before the import's own end is. The service's peak RSS is
 * watched from just before the POST to the final status.
 */
async function runImport(
  server: ServerUnderTest,
  apiKey: string,
  resource: ImportRun['resource'],
  body: Buffer,
  rows: number,
  whileRunning?: (stillRunning: () => boolean) => Promise<void>,
): Promise<ImportRun> {
  if (rows > MAX_IMPORT_ROWS || body.length > MAX_IMPORT_BYTES) {
    throw new Error(`the ${resource} body is over the import's limits: ${rows} rows, ${body.length} bytes`);
  }
  const pid = server.process.pid ?? 0;
  await pause(200);
  const peak = watchPeak(pid, 50);
  const started = performance.now();
  const posted = await api<ImportBody>(server, apiKey, `/v1/imports?resource=${resource}`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': 'text/csv' },
  });
  let current = posted;
  let finishedAt = started;
  let side: Promise<void> | undefined;
  while (!FINAL.has(current.status)) {
    await pause(100);
    current = await api<ImportBody>(server, apiKey, `/v1/imports/${posted.id}`);
    finishedAt = performance.now();
    if (whileRunning && !side && current.processedRows > 0) {
      const snapshot = (): boolean => !FINAL.has(current.status);
      side = whileRunning(snapshot);
    }
  }
  const seconds = (finishedAt - started) / 1000;
  const measured = peak.stop();
  await side;
  return {
    resource,
    rows,
    bodyBytes: body.length,
    seconds,
    status: current.status,
    createdCount: current.createdCount,
    updatedCount: current.updatedCount,
    failedCount: current.failedCount,
    rssBeforeMiB: peak.rssBeforeMiB,
    ...measured,
  };
}

/** GET one work order of the big team, round robin over the read pool, at `READ_RATE` requests a second. */
function readLoad(server: ServerUnderTest, fixtures: Fixtures, seconds: number): Promise<LoadResult> {
  let next = 0;
  return drive(server, {
    connections: READ_CONNECTIONS,
    durationSeconds: seconds,
    rate: READ_RATE,
    apiKey: fixtures.apiKey,
    next: () => ({ method: 'GET', path: `/v1/work-orders/${fixtures.readIds[next++ % fixtures.readIds.length]}` }),
  });
}

/** Counts the CSV records that end in a chunk: a CRLF outside double quotes (RFC 4180) ends one. */
class RecordCounter {
  records = 0;
  private quoted = false;
  private lastWasCr = false;

  add(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x22) this.quoted = !this.quoted;
      else if (byte === 0x0a && this.lastWasCr && !this.quoted) this.records++;
      this.lastWasCr = byte === 0x0d;
    }
  }
}

/**
 * One CSV export of the big team's work orders, read as a stream and thrown away, with the service's RSS sampled
 * every 20 ms beside the rows read so far.
 */
async function runExport(
  server: ServerUnderTest,
  apiKey: string,
  query: string,
  expectedRows: number,
): Promise<ExportRun> {
  const pid = server.process.pid ?? 0;
  await pause(500);
  const peak = watchPeak(pid, 50);
  const counter = new RecordCounter();
  const samples: { rows: number; rss: number }[] = [];
  const sampler = setInterval(() => {
    const rss = memoryMiB(pid, 'VmRSS');
    if (rss !== undefined) samples.push({ rows: Math.max(0, counter.records - 1), rss });
  }, 20);
  const started = performance.now();
  let bytes = 0;
  let status = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(
        `${server.baseUrl}/v1/work-orders${query}`,
        { agent: false, headers: { authorization: `Bearer ${apiKey}`, accept: 'text/csv' } },
        (response) => {
          status = response.statusCode ?? 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            counter.add(chunk);
          });
          response.on('end', resolve);
          response.on('error', reject);
          response.on('aborted', () => reject(new Error('the export was cut off')));
        },
      );
      request.on('error', reject);
      request.end();
    });
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const measured = peak.stop();
  const rows = Math.max(0, counter.records - 1);
  samples.push({ rows, rss: memoryMiB(pid, 'VmRSS') ?? Number.NaN });
  const rssAtQuartersMiB = [0.25, 0.5, 0.75, 1].map(
    (share) => (samples.find((sample) => sample.rows >= share * rows) ?? samples[samples.length - 1]).rss,
  );
  return {
    query,
    rows,
    expectedRows,
    bytes,
    seconds,
    status,
    rssBeforeMiB: peak.rssBeforeMiB,
    ...measured,
    rssAtQuartersMiB,
  };
}

/**
 * The whole check, on the service only (the issue names no floor for it): a fresh team imports `sizes.units` units,
 * then `sizes.workOrders` work orders at those units, with the read scenario run on the big team for
 * `sizes.readSeconds` once idle (before) and once while the work orders import; then two exports of the big team's
 * work orders, a tenth of them and all of them. The fresh team and everything it wrote are deleted at the end.
 */
export async function measureImportsAndExports(
  server: ServerUnderTest,
  fixtures: Fixtures,
  databaseUrl: string,
  sizes: ImportSizes,
  log: (line: string) => void,
): Promise<ImportCheckResult> {
  const failures: string[] = [];
  const team = await freshTeam(databaseUrl);
  try {
    const units = await runImport(server, team.apiKey, 'units', unitsCsv(sizes.units), sizes.units);
    log(`  ${describeImport(units)}`);
    // The units' ANALYZE runs after the import's last commit: let it finish before the idle figure is taken.
    await pause(1_000);
    const readIdle = await readLoad(server, fixtures, sizes.readSeconds);
    log(`  ${describeRead('idle', readIdle)}`);
    let readDuringImport: LoadResult | undefined;
    let readWithinImport = false;
    const workOrders = await runImport(
      server,
      team.apiKey,
      'work-orders',
      workOrdersCsv(sizes.workOrders, sizes.units),
      sizes.workOrders,
      async (stillRunning) => {
        readDuringImport = await readLoad(server, fixtures, sizes.readSeconds);
        readWithinImport = stillRunning();
      },
    );
    log(`  ${describeImport(workOrders)}`);
    if (!readDuringImport) throw new Error('the work orders import ended before its first poll saw it running');
    log(
      `  ${describeRead('during the import', readDuringImport)}${readWithinImport ? '' : ' (the import ended first)'}`,
    );
    for (const run of [units, workOrders]) {
      if (run.status !== 'succeeded' || run.createdCount !== run.rows || run.failedCount !== 0) {
        failures.push(
          `${run.resource} import ${run.status}: ${run.createdCount} of ${run.rows} created, ${run.failedCount} failed`,
        );
      }
    }
    for (const [label, result] of [
      ['idle', readIdle],
      ['during the import', readDuringImport],
    ] as const) {
      const bad = Object.values(result.failures).reduce((sum, count) => sum + count, 0) + result.errors;
      if (bad > 0) failures.push(`reads ${label}: ${bad} failed (${JSON.stringify(result.failures)})`);
    }

    // The exports: a tenth of the big team's work orders (the most recently updated), then all of them.
    const counts = await exportCounts(databaseUrl, fixtures.teamId);
    const smallExport = await runExport(
      server,
      fixtures.apiKey,
      `?updatedSince=${encodeURIComponent(counts.tenthSince)}`,
      counts.tenth,
    );
    log(`  ${describeExport(smallExport)}`);
    const largeExport = await runExport(server, fixtures.apiKey, '', counts.all);
    log(`  ${describeExport(largeExport)}`);
    for (const run of [smallExport, largeExport]) {
      if (run.status !== 200 || run.rows !== run.expectedRows) {
        failures.push(`export ${run.query || '(all)'}: ${run.status}, ${run.rows} of ${run.expectedRows} rows`);
      }
    }
    return {
      units,
      workOrders,
      readIdle,
      readDuringImport,
      readWithinImport,
      smallExport,
      largeExport,
      failures,
    };
  } finally {
    await team.drop();
  }
}

/** The big team's work orders, and the `updatedSince` that selects a tenth of them (with how many it selects). */
async function exportCounts(url: string, teamId: string): Promise<{ all: number; tenth: number; tenthSince: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const all = Number(
      (await client.query<{ n: string }>('SELECT count(*) AS n FROM work_orders WHERE team_id = $1', [teamId])).rows[0]
        .n,
    );
    const since = (
      await client.query<{ updated_at: Date }>(
        'SELECT updated_at FROM work_orders WHERE team_id = $1 ORDER BY updated_at DESC OFFSET $2 LIMIT 1',
        [teamId, Math.max(0, Math.round(all / 10) - 1)],
      )
    ).rows[0].updated_at;
    const tenth = Number(
      (
        await client.query<{ n: string }>(
          'SELECT count(*) AS n FROM work_orders WHERE team_id = $1 AND updated_at >= $2',
          [teamId, since],
        )
      ).rows[0].n,
    );
    return { all, tenth, tenthSince: since.toISOString() };
  } finally {
    await client.end();
  }
}

const mb = (mib: number): string => ((mib * MIB) / 1e6).toFixed(1);

export function describeImport(run: ImportRun): string {
  return (
    `import of ${run.rows.toLocaleString('en-GB')} ${run.resource} (${(run.bodyBytes / MIB).toFixed(1)} MiB CSV): ` +
    `${run.status} in ${run.seconds.toFixed(1)} s (${(run.rows / run.seconds).toFixed(0)} rows/s), ` +
    `${run.createdCount} created, ${run.updatedCount} updated, ${run.failedCount} failed; ` +
    `RSS ${run.rssBeforeMiB.toFixed(1)} MiB before, peak ${run.peakMiB.toFixed(1)} MiB = ${mb(run.peakMiB)} MB (${run.peakFrom})`
  );
}

export function describeRead(label: string, result: LoadResult): string {
  return (
    `GET one work order at ${READ_RATE} req/s, ${label}: ${result.requests} requests, p50 ${result.p50.toFixed(1)} ms, ` +
    `p95 ${result.p95.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`
  );
}

export function describeExport(run: ExportRun): string {
  const quarters = run.rssAtQuartersMiB.map((rss) => rss.toFixed(1)).join(' / ');
  return (
    `CSV export of ${run.rows.toLocaleString('en-GB')} work orders (${(run.bytes / MIB).toFixed(1)} MiB) in ` +
    `${run.seconds.toFixed(1)} s: RSS ${run.rssBeforeMiB.toFixed(1)} MiB before, peak ${run.peakMiB.toFixed(1)} MiB ` +
    `(${run.peakFrom}), a rise of ${exportRiseMB(run).toFixed(1)} MB; at 25/50/75/100 % of the rows ${quarters} MiB`
  );
}

/** The export's peak RSS over the RSS just before, MB. */
export function exportRiseMB(run: ExportRun): number {
  return Math.max(0, ((run.peakMiB - run.rssBeforeMiB) * MIB) / 1e6);
}

/** The target lines of the check; `verdict` says met/MISSED (or nothing in a smoke run). */
export function importTargetLines(result: ImportCheckResult, verdict: (met: boolean) => string): string[] {
  const { units, workOrders, readIdle, readDuringImport, smallExport, largeExport } = result;
  const runOk = (run: ImportRun): boolean =>
    run.status === 'succeeded' && run.createdCount === run.rows && run.failedCount === 0;
  const peakMiB = Math.max(units.peakMiB, workOrders.peakMiB, smallExport.peakMiB, largeExport.peakMiB);
  const ratio = readDuringImport.p95 / readIdle.p95;
  const growthMB = ((largeExport.peakMiB - smallExport.peakMiB) * MIB) / 1e6;
  const bothMB = ((Math.max(largeExport.peakMiB, smallExport.peakMiB) - smallExport.rssBeforeMiB) * MIB) / 1e6;
  const [quarter, , , whole] = largeExport.rssAtQuartersMiB;
  const lateMB = ((whole - quarter) * MIB) / 1e6;
  const flat = IMPORT_TARGETS.exportFlatBytes / 1e6;
  return [
    `- ${units.rows.toLocaleString('en-GB')} units imported in ${units.seconds.toFixed(1)} s, ${units.failedCount} failed ` +
      `(target ≤ ${IMPORT_TARGETS.unitsSeconds} s, every row created): ${verdict(runOk(units) && units.seconds <= IMPORT_TARGETS.unitsSeconds)}`,
    `- ${workOrders.rows.toLocaleString('en-GB')} work orders imported in ${workOrders.seconds.toFixed(1)} s, ` +
      `${workOrders.failedCount} failed (target ≤ ${IMPORT_TARGETS.workOrdersSeconds} s, every row created): ` +
      verdict(runOk(workOrders) && workOrders.seconds <= IMPORT_TARGETS.workOrdersSeconds),
    `- the service's peak RSS during the imports and exports ${mb(peakMiB)} MB ` +
      `(target ≤ ${IMPORT_TARGETS.peakRssBytes / 1e6} MB): ${verdict(peakMiB * MIB <= IMPORT_TARGETS.peakRssBytes)}`,
    `- read p95 during the import ${readDuringImport.p95.toFixed(1)} ms ÷ idle ${readIdle.p95.toFixed(1)} ms = ` +
      `${ratio.toFixed(2)} (target ≤ ${IMPORT_TARGETS.readP95Ratio}${result.readWithinImport ? '' : ', the import ended before the reads'}): ` +
      verdict(ratio <= IMPORT_TARGETS.readP95Ratio && result.readWithinImport),
    `- ${largeExport.rows.toLocaleString('en-GB')}-row export: peak ${largeExport.peakMiB.toFixed(1)} MiB, ` +
      `${growthMB.toFixed(1)} MB over the ${smallExport.rows.toLocaleString('en-GB')}-row export's just before; RSS ` +
      `${lateMB.toFixed(1)} MB from 25 % to 100 % of its rows; both exports ${bothMB.toFixed(1)} MB over the RSS before ` +
      `them (flat: the first two under ${flat} MB): ` +
      verdict(growthMB < flat && lateMB < flat && largeExport.rows === largeExport.expectedRows),
  ];
}
