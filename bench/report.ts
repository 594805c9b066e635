import type { LoadResult } from './lib/load.js';

export interface ScenarioResult {
  scenario: string;
  service: LoadResult;
  floor: LoadResult;
  /** The service at the `--baseline` commit, when the run has one. */
  baseline?: LoadResult;
  /** The floor doing the scenario's work the least way the contract allows (`Scenario.leastWork`), if it has one. */
  leastWork?: LoadResult;
  /** Measured in this many interleaved rounds per server (a scenario that writes files), not in one run each. */
  rounds?: number;
}

export const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '–');
const mib = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(0));
const rate = (value: number): string => value.toFixed(0);

function problems(result: LoadResult): string {
  const statuses = Object.entries(result.failures).map(([status, count]) => `${count}×${status}`);
  if (result.errors > 0) statuses.push(`${result.errors} socket errors`);
  return statuses.length === 0 ? '0' : `**${statuses.join(', ')}**`;
}

export function hasErrors(result: LoadResult): boolean {
  return result.errors > 0 || Object.keys(result.failures).length > 0 || result.requests === 0;
}

/** The row of a scenario's `leastWork` run (on the floor); its ratio is its own req/s over the floor's. */
export const LEAST_WORK_ROW = 'floor, least work';

/** One Markdown table (readable in a terminal too): a row per server per scenario, the ratio on the service's row. */
export function renderTable(results: ScenarioResult[]): string {
  const header = [
    'scenario',
    'server',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'CPU ms/req',
    'DB CPU ms/req',
    'peak RSS MiB',
    'non-2xx / errors',
    'service ÷ floor',
    ...(results.some((result) => result.baseline) ? ['service ÷ baseline'] : []),
  ];
  const rows: string[][] = [];
  const withBaseline = header.length > 11;
  const ratioOf = (a: LoadResult, b: LoadResult | undefined): string =>
    b && b.requestsPerSecond > 0 ? (a.requestsPerSecond / b.requestsPerSecond).toFixed(2) : '–';
  for (const { scenario, service, floor, baseline, leastWork } of results) {
    const flagged = [service, floor, ...(baseline ? [baseline] : []), ...(leastWork ? [leastWork] : [])].some(hasErrors)
      ? ' ⚠'
      : '';
    const servers: Array<readonly [string, LoadResult]> = [
      ['service', service],
      ...(baseline ? [['baseline', baseline] as const] : []),
      ['floor', floor],
      ...(leastWork ? [[LEAST_WORK_ROW, leastWork] as const] : []),
    ];
    for (const [name, result] of servers) {
      rows.push([
        name === 'service' ? `${scenario}${flagged}` : '',
        name,
        rate(result.requestsPerSecond),
        ms(result.p50),
        ms(result.p95),
        ms(result.p99),
        result.cpuMsPerRequest === undefined ? '–' : result.cpuMsPerRequest.toFixed(2),
        result.databaseCpuMsPerRequest === undefined ? '–' : result.databaseCpuMsPerRequest.toFixed(2),
        mib(result.peakRssMiB),
        problems(result),
        name === 'service'
          ? ratioOf(service, floor)
          : name === LEAST_WORK_ROW
            ? ratioOf(leastWork as LoadResult, floor)
            : '',
        ...(withBaseline ? [name === 'service' ? ratioOf(service, baseline) : ''] : []),
      ]);
    }
  }
  return markdownTable(header, rows, (i) => i >= 2 && i !== 9);
}

/** A Markdown table with its columns padded to one width; `numeric` columns are right-aligned. */
export function markdownTable(header: string[], rows: string[][], numeric: (column: number) => boolean): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, i) => (numeric(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (numeric(i) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
