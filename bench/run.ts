// `npm run bench [-- --smoke]`: the service against the floor on the same seeded database, scenario by scenario.
// See docs/benchmark.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ATTACHMENT_TARGETS, describeMemory, measureAttachmentMemory, MIB, type MemoryResult } from './attachments.js';
import { type Fixtures, isSeeded, prepare } from './fixtures.js';
import { type ImportCheckResult, importTargetLines, measureImportsAndExports } from './imports.js';
import { numberArg, parseArgs } from './lib/args.js';
import { prepareBaseline } from './lib/baseline.js';
import { migrate, openBenchDatabase, recreateOwnedDatabase, ROOT } from './lib/database.js';
import { combineRuns, drive, type LoadResult } from './lib/load.js';
import { readManifest, type SeedManifest, writeManifest } from './lib/manifest.js';
import { memoryMiB, type ServerUnderTest, startServer, stopServer } from './lib/servers.js';
import { disableAutoExplain, enableAutoExplain, explainScenarios, LogTap } from './explain.js';
import { checkParity } from './parity.js';
import { hasErrors, renderTable, type ScenarioResult } from './report.js';
import { type Scenario, SCENARIOS } from './scenarios.js';
import { DATA_VERSION, seedDatabase } from './seed/seed-database.js';

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

const args = parseArgs(process.argv.slice(2), {
  smoke: 'flag',
  reseed: 'flag',
  scale: 'value',
  seed: 'value',
  duration: 'value',
  warmup: 'value',
  connections: 'value',
  only: 'value',
  explain: 'flag',
  baseline: 'value',
});
const smoke = args.has('smoke');
const scale = numberArg(args, 'scale', smoke ? 0.01 : 1, (n) => n > 0 && n <= 10);
const seed = numberArg(args, 'seed', 1, (n) => Number.isInteger(n) && n >= 0);
const duration = numberArg(args, 'duration', smoke ? 1 : 10, (n) => n > 0 && n <= 120);
const warmup = numberArg(args, 'warmup', smoke ? 0.5 : 3, (n) => n >= 0 && n <= 60);
const connections = numberArg(args, 'connections', 10, (n) => Number.isInteger(n) && n >= 1 && n <= 200);
const only = args.get('only')?.toLowerCase();
/** A git ref whose build runs beside this checkout's service in every scenario (A/B in the same run). */
const baselineRef = args.get('baseline');
const scenarios = SCENARIOS.filter((scenario) => !only || scenario.name.toLowerCase().includes(only));
/** Issue 24's memory check, run before the load so the service's RSS is not that of earlier scenarios. */
const MEMORY_CHECK = 'attachment memory, 10 MiB upload + download';
const checkMemory = !only || MEMORY_CHECK.includes(only);
/** Issue 25's check, on the service only, also before the load (whose POSTs would change the exports' rows). */
const IMPORT_CHECK = 'imports and exports, 10,000 units + 50,000 work orders imported, 100,000-row CSV export';
const checkImports = !only || IMPORT_CHECK.includes(only);
if (scenarios.length === 0 && !checkMemory && !checkImports) throw new Error(`no scenario matches --only ${only}`);
/** Where the servers' uploads go (the service's STORAGE_DIR, the floor's files), one folder each; removed at the end. */
const uploadRoot = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
const uploadDirOf = (name: ServerUnderTest['name']): string => join(uploadRoot, name);

async function seeded(url: string, label: string, owned: boolean): Promise<SeedManifest> {
  const existing = readManifest(label);
  if (
    !args.has('reseed') &&
    existing?.dataVersion === DATA_VERSION &&
    existing.scale === scale &&
    existing.seed === seed &&
    (await isSeeded(url, existing))
  ) {
    log(`reusing the data seeded ${existing.seededAt} (scale ${scale}, seed ${seed})`);
    return existing;
  }
  if (owned) {
    await recreateOwnedDatabase(url);
    await migrate(url);
  }
  const manifest = await seedDatabase(url, { scale, seed, log: (line) => log(`seed: ${line}`) });
  writeManifest(label, manifest);
  return manifest;
}

/** One run of a scenario: a name, a server and the load it gets (the scenario's, or its least work's on the floor). */
type Entrant = readonly [name: string, server: ServerUnderTest, requests: Scenario['requests']];

/** A scenario that writes files is measured in interleaved rounds of this many seconds each (see measureAll). */
const ROUND_SECONDS = 2;

/** Every entrant of a scenario, measured: one after the other, or in interleaved rounds for one that writes files. */
async function measureAll(
  entrants: Entrant[],
  scenario: Scenario,
  fixtures: Fixtures,
): Promise<{ measured: Map<string, LoadResult>; rounds?: number }> {
  const measured = new Map<string, LoadResult>();
  const interleaved = scenario.writesFiles && !smoke && duration >= ROUND_SECONDS * entrants.length;
  if (!interleaved) {
    for (const [name, server, requests] of entrants)
      measured.set(name, await measure(name, server, scenario, requests, fixtures));
    return { measured };
  }
  // A run that writes files pays the kernel for every page of them, and on this virtual machine the price of a page
  // depends on what the runs before it did: memory the guest freed goes back to the host (free page reporting), and
  // the first write into such a page waits for the host to provide it again, 1.3 to 3.5 ms of system time per MiB
  // written (docs/performance.md, "Session 20"). One run after another, the second paid up to twice what the first
  // did, whichever server it was. In rounds, each entrant first in turn, every entrant writes into memory of the
  // same history.
  const options = { connections, apiKey: fixtures.apiKey, databasePid: database.postmasterPid };
  const loads = entrants.map(([, , requests]) => requests(fixtures));
  if (warmup > 0)
    for (const [index, [, server]] of entrants.entries())
      await drive(server, { ...options, durationSeconds: warmup, next: loads[index] });
  writeOutFiles();
  // Each round runs every entrant once; as many as give each at least `duration`, each entrant first equally often.
  const rounds = entrants.length * Math.ceil(duration / (ROUND_SECONDS * entrants.length));
  const runs = entrants.map(() => ({ results: [] as LoadResult[], latencies: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < entrants.length; turn++) {
      const index = (round + turn) % entrants.length;
      const run = runs[index];
      const result = await drive(entrants[index][1], {
        ...options,
        durationSeconds: ROUND_SECONDS,
        next: loads[index],
        keepLatencies: run.latencies,
      });
      run.results.push(result);
      writeOutFiles();
    }
  }
  for (const [index, [name]] of entrants.entries()) {
    const result = combineRuns(runs[index].results, runs[index].latencies);
    logResult(name, result);
    measured.set(name, result);
  }
  return { measured, rounds };
}

async function measure(
  name: string,
  server: ServerUnderTest,
  scenario: Scenario,
  requests: Scenario['requests'],
  fixtures: Fixtures,
): Promise<LoadResult> {
  const options = { connections, apiKey: fixtures.apiKey, databasePid: database.postmasterPid };
  // A smoke run of a heavy scenario only shows that it works: a few requests.
  const amount = smoke && scenario.smokeRequests ? Math.max(scenario.smokeRequests, connections) : undefined;
  if (warmup > 0 && amount === undefined) {
    await drive(server, { ...options, durationSeconds: warmup, next: requests(fixtures) });
  }
  // The warm-up's files written out first: the measured run starts with no dirty pages, as every server's does.
  if (scenario.writesFiles) writeOutFiles();
  const result = await drive(server, { ...options, durationSeconds: duration, amount, next: requests(fixtures) });
  // The files a server wrote are written out before the next one runs, so none is slowed by another's pages still
  // being written; they are removed only after every server's run (`loadTest`), because ext4 without a journal (as
  // on the machine this was measured on) skips the inodes of files deleted in the last minute when it makes a new
  // file, at a cost per file made that grows with their number.
  if (scenario.writesFiles) writeOutFiles();
  logResult(name, result);
  return result;
}

function logResult(name: string, result: LoadResult): void {
  log(
    `  ${name.padEnd(7)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms` +
      (hasErrors(result) ? `  ERRORS ${JSON.stringify(result.failures)} + ${result.errors}` : ''),
  );
}

/** Writes every dirty page out to disk (`sync`), so a measured run neither pays for nor leaves another's writeback. */
function writeOutFiles(): void {
  execFileSync('sync', { timeout: 120_000 });
}

/** Removes what a server wrote; uploads still in flight when the load stopped may be writing meanwhile. */
async function emptyFolder(folder: string): Promise<void> {
  await new Promise((settled) => setTimeout(settled, 500));
  rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  mkdirSync(folder, { recursive: true });
}

/**
 * The targets the run checks (issue 24's; issue 13's are read off the table in docs/performance.md): one line
 * each, and whether any is missed. A smoke run checks none: its sizes and durations measure nothing.
 */
function checkTargets(
  results: ScenarioResult[],
  memory: MemoryResult[],
  imports: ImportCheckResult | undefined,
): { lines: string[]; missed: boolean } {
  const lines: string[] = [];
  let missed = false;
  const verdict = (met: boolean): string => {
    if (smoke) return 'not checked in a smoke run';
    missed ||= !met;
    return met ? 'met' : 'MISSED';
  };
  for (const { scenario, service, floor } of results) {
    const target = scenarios.find((candidate) => candidate.name === scenario)?.minRatio;
    if (target === undefined) continue;
    const ratio = floor.requestsPerSecond > 0 ? service.requestsPerSecond / floor.requestsPerSecond : 0;
    lines.push(`- ${scenario}: service ÷ floor ${ratio.toFixed(2)} (target ≥ ${target}): ${verdict(ratio >= target)}`);
  }
  const limit = ATTACHMENT_TARGETS.rssRiseBytes;
  for (const result of memory) {
    lines.push(
      result.server === 'service'
        ? `- ${describeMemory(result)} (target < ${limit / 1e6} MB): ` +
            verdict(result.riseBytes < limit && result.fileBytes === 10 * MIB)
        : `- for reference, the same on the ${result.server === 'floor' ? "floor's plain upload server" : 'baseline'}: ${describeMemory(result)}`,
    );
  }
  if (imports) lines.push(...importTargetLines(imports, verdict));
  return { lines, missed };
}

/** Every scenario against both servers; writes the table and returns whether any scenario had errors. */
async function loadTest(
  service: ServerUnderTest,
  floor: ServerUnderTest,
  fixtures: Fixtures,
  manifest: SeedManifest,
  baseline: ServerUnderTest | undefined,
  memory: MemoryResult[],
  imports: ImportCheckResult | undefined,
): Promise<boolean> {
  const results: ScenarioResult[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    log(scenario.name);
    // Rotate who goes first, so none always runs on a warmer database.
    const all: Entrant[] = [
      ['service', service, scenario.requests],
      ...(baseline ? [['baseline', baseline, scenario.requests] as const] : []),
      ['floor', floor, scenario.requests],
      ...(scenario.leastWork ? [['least work', floor, scenario.leastWork] as const] : []),
    ];
    const order = [...all.slice(index % all.length), ...all.slice(0, index % all.length)];
    let measured: Map<string, LoadResult>;
    let rounds: number | undefined;
    const undo = await scenario.setup?.(database.url, fixtures);
    try {
      ({ measured, rounds } = await measureAll(order, scenario, fixtures));
    } finally {
      try {
        await undo?.();
      } finally {
        if (scenario.writesFiles) for (const [, server] of order) await emptyFolder(uploadDirOf(server.name));
      }
    }
    results.push({
      scenario: scenario.name,
      service: measured.get('service') as LoadResult,
      floor: measured.get('floor') as LoadResult,
      baseline: measured.get('baseline'),
      leastWork: measured.get('least work'),
      rounds,
    });
  }
  const peaks = [service, ...(baseline ? [baseline] : []), floor]
    .map((server) => `${server.name} ${memoryMiB(server.process.pid ?? 0, 'VmHWM')?.toFixed(0) ?? '?'} MiB`)
    .join(', ');
  const { workOrders, tenants } = manifest.bigTeam.counts;
  const targets = checkTargets(results, memory, imports);
  const summary = [
    '',
    ...(results.length > 0 ? [renderTable(results), ''] : []),
    ...(targets.lines.length > 0 ? ['Targets:', '', ...targets.lines, ''] : []),
    `Scale ${scale} (big team: ${workOrders.toLocaleString('en-GB')} work orders, ${tenants.toLocaleString('en-GB')} tenants), ` +
      `${connections} connections, ${warmup}s warm-up + ${duration}s per run` +
      results
        .filter((result) => result.rounds !== undefined)
        .map((result) => ` (${result.scenario}: ${result.rounds} rounds of ${ROUND_SECONDS}s each, interleaved)`)
        .join('') +
      `; Node ${process.version}, ${cpus().length} CPUs; ` +
      (baselineRef ? `baseline: the service at ${baselineRef}; ` : '') +
      `process peak RSS (VmHWM): ${peaks}.`,
    '',
  ].join('\n');
  process.stdout.write(summary);
  const kind = `${smoke ? '-smoke' : ''}${only ? '-partial' : ''}`;
  const json = JSON.stringify(
    { scale, seed, connections, warmup, duration, results, attachmentMemory: memory, imports },
    null,
    2,
  );
  writeFileSync(resolve(ROOT, '.data', `bench-last${kind}.md`), summary);
  writeFileSync(resolve(ROOT, '.data', `bench-last${kind}.json`), json);
  // Also kept per scale, so runs at two scales can be compared (`npm run bench:compare`, issue 27).
  writeFileSync(resolve(ROOT, '.data', `bench-last-s${scale}${kind}.json`), json);
  const erroneous = results.filter(
    (result) =>
      hasErrors(result.service) ||
      hasErrors(result.floor) ||
      (result.baseline !== undefined && hasErrors(result.baseline)) ||
      (result.leastWork !== undefined && hasErrors(result.leastWork)),
  );
  if (erroneous.length > 0) log(`scenarios with errors: ${erroneous.map((result) => result.scenario).join('; ')}`);
  if (targets.missed) log('a target was missed (see "Targets" above)');
  const memoryFailures = memory.flatMap((result) => result.failures.map((failure) => `${result.server}: ${failure}`));
  const memoryFailed = memoryFailures.length > 0;
  if (memoryFailed) log(`attachment memory check: ${memoryFailures.join('; ')}`);
  const importFailures = imports?.failures ?? [];
  if (importFailures.length > 0) log(`imports and exports check: ${importFailures.join('; ')}`);
  return erroneous.length > 0 || targets.missed || memoryFailed || importFailures.length > 0;
}

const started = Date.now();
log(
  `${args.has('explain') ? 'explain' : smoke ? 'smoke' : 'full'} run: scale ${scale}, seed ${seed}, ${connections} connections, ` +
    `${warmup}s warm-up + ${duration}s per scenario and server`,
);
const tap = new LogTap();
const database = await openBenchDatabase(scale, seed, process.env.BENCH_DATABASE_URL, log, tap.write);
const servers: ServerUnderTest[] = [];
let restore: (() => Promise<void>) | undefined;
let explaining = false;
let failed = false;

let cleaning: Promise<void> | undefined;
/** Leaves things as found: servers stopped, auto_explain off, seeded rows restored, the cluster stopped. Runs once. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const server of servers) await stopServer(server);
    if (explaining) {
      await disableAutoExplain(database.url).catch((error: unknown) =>
        log(`could not turn auto_explain off: ${String(error)}`),
      );
    }
    if (restore) await restore().catch((error: unknown) => log(`could not restore the seeded data: ${String(error)}`));
    rmSync(uploadRoot, { recursive: true, force: true });
    await database.stop();
  })();
  return cleaning;
}
// The embedded cluster no longer stops itself when this process ends: on Ctrl-C, clean up first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}
try {
  await migrate(database.url);
  const manifest = await seeded(database.url, database.label, database.owned);
  const prepared = await prepare(database.url, manifest, 500);
  restore = prepared.restore;
  const { fixtures } = prepared;
  mkdirSync(resolve(ROOT, '.data'), { recursive: true });

  if (args.has('explain')) {
    if (!database.owned) throw new Error("--explain reads the bench cluster's log: run it without BENCH_DATABASE_URL");
    // Set before the servers connect: the settings apply to sessions opened afterwards.
    await enableAutoExplain(database.url);
    explaining = true;
  }
  const baselineRoot = baselineRef ? prepareBaseline(baselineRef, log) : undefined;
  log(`starting the service${baselineRoot ? ', the baseline' : ''} and the floor`);
  for (const name of ['service', 'baseline', 'floor'] as const) mkdirSync(uploadDirOf(name), { recursive: true });
  const service = await startServer('service', database.url, uploadDirOf('service'));
  servers.push(service);
  const baseline = baselineRoot
    ? await startServer('baseline', database.url, uploadDirOf('baseline'), baselineRoot)
    : undefined;
  if (baseline) servers.push(baseline);
  const floor = await startServer('floor', database.url, uploadDirOf('floor'));
  servers.push(floor);

  const mismatches = await checkParity(service, floor, fixtures);
  for (const mismatch of mismatches) log(`MISMATCH ${mismatch}`);
  log(
    mismatches.length === 0
      ? 'parity: the floor answers exactly as the service does'
      : `parity: ${mismatches.length} differences`,
  );

  if (explaining) {
    const plans = await explainScenarios([service, floor], scenarios, fixtures, tap);
    if (!plans.includes('Query Text'))
      throw new Error('no plan in the cluster log: is another process running the bench cluster?');
    process.stdout.write(plans);
    writeFileSync(resolve(ROOT, '.data', 'bench-explain.md'), plans);
    failed = mismatches.length > 0;
  } else {
    const memory: MemoryResult[] = [];
    if (checkMemory) {
      log(MEMORY_CHECK);
      // The floor's plain server too, as a reference: what streaming the same bytes costs Node itself (and the
      // baseline, when there is one, for an A/B in the same run).
      for (const server of [service, ...(baseline ? [baseline] : []), floor]) {
        // Smoke: a few small round trips, to show the path works.
        const result = await measureAttachmentMemory(server, fixtures, smoke ? MIB : 10 * MIB, smoke ? 3 : 10);
        log(`  ${describeMemory(result)}`);
        memory.push(result);
        await emptyFolder(uploadDirOf(server.name));
      }
    }
    let imports: ImportCheckResult | undefined;
    if (checkImports) {
      log(IMPORT_CHECK);
      // Smoke: small sizes, to show the path works (the export is of the smoke seed's big team: 1,000 rows).
      imports = await measureImportsAndExports(
        service,
        fixtures,
        database.url,
        smoke
          ? { units: 200, workOrders: 500, readSeconds: 1 }
          : { units: 10_000, workOrders: 50_000, readSeconds: duration },
        log,
      );
    }
    failed = (await loadTest(service, floor, fixtures, manifest, baseline, memory, imports)) || mismatches.length > 0;
  }
} catch (error) {
  failed = true;
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await cleanUp();
  log(`${failed ? 'FAILED' : 'done'} in ${((Date.now() - started) / 1000).toFixed(0)}s`);
}
process.exit(failed ? 1 : 0);
