// `npm run bench:compare -- .data/bench-last-s1.json .data/bench-last-s10.json`: issue 27's growth targets between
// two runs at different scales. See docs/benchmark.md, "Scale 10".
import { readFileSync } from 'node:fs';
import { markdownTable, ms, type ScenarioResult } from './report.js';
import { SCENARIOS } from './scenarios.js';

/** The part of a run's `.data/bench-last*.json` read here. */
interface RunFile {
  scale: number;
  seed: number;
  connections: number;
  warmup: number;
  duration: number;
  results: ScenarioResult[];
}

function readRun(path: string): RunFile {
  const run = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunFile>;
  if (typeof run.scale !== 'number' || !Array.isArray(run.results)) {
    throw new Error(`${path} is not a benchmark run's JSON (.data/bench-last*.json)`);
  }
  return run as RunFile;
}

const paths = process.argv.slice(2);
if (paths.length !== 2) {
  process.stderr.write('usage: npm run bench:compare -- <run a.json> <run b.json> (two runs at different scales)\n');
  process.exit(2);
}
// The smaller scale first, whichever order the files came in: the ratio is larger ÷ smaller.
const [small, large] = paths.map(readRun).sort((a, b) => a.scale - b.scale);
if (small.scale === large.scale) process.stderr.write(`[compare] both runs are at scale ${small.scale}\n`);
for (const key of ['seed', 'connections', 'warmup', 'duration'] as const) {
  if (small[key] !== large[key]) {
    process.stderr.write(`[compare] the runs differ in ${key}: ${small[key]} and ${large[key]}\n`);
  }
}

const header = [
  'scenario',
  `p95 ms, scale ${small.scale}`,
  `p95 ms, scale ${large.scale}`,
  'ratio',
  'target',
  'verdict',
];
const rows: string[][] = [];
let missed = 0;
for (const { scenario, service } of large.results) {
  const before = small.results.find((result) => result.scenario === scenario)?.service;
  if (!before) continue;
  const target = SCENARIOS.find((candidate) => candidate.name === scenario)?.maxGrowth;
  const ratio = before.p95 > 0 ? service.p95 / before.p95 : Number.NaN;
  const met = target !== undefined && ratio <= target;
  if (target !== undefined && !met) missed++;
  rows.push([
    scenario,
    ms(before.p95),
    ms(service.p95),
    Number.isFinite(ratio) ? ratio.toFixed(2) : '–',
    target === undefined ? '–' : `≤ ${target} ×`,
    target === undefined ? 'no target' : met ? 'met' : 'MISSED',
  ]);
}
if (rows.length === 0) {
  process.stderr.write('[compare] no scenario is in both runs\n');
  process.exit(2);
}
process.stdout.write(
  [
    `The service's p95, scale ${large.scale} against scale ${small.scale} (issue 27's growth targets):`,
    '',
    markdownTable(header, rows, (i) => i >= 1 && i <= 3),
    '',
    missed === 0 ? 'Every target met.' : `${missed} target${missed === 1 ? '' : 's'} missed.`,
    '',
  ].join('\n'),
);
process.exit(missed === 0 ? 0 : 1);
