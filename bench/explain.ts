import pg from 'pg';
import type { Fixtures } from './fixtures.js';
import type { ServerUnderTest } from './lib/servers.js';
import type { Scenario } from './scenarios.js';

/** The cluster's log, collected while `capturing` is on. */
export class LogTap {
  capturing = false;
  private text = '';

  readonly write = (chunk: string): void => {
    if (this.capturing) this.text += chunk;
  };

  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

const SETTINGS: [string, string][] = [
  ['session_preload_libraries', 'auto_explain'],
  ['auto_explain.log_min_duration', '0'],
  ['auto_explain.log_analyze', 'on'],
  ['auto_explain.log_buffers', 'on'],
];

async function onDatabase(url: string, statement: (name: string) => string[]): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)).replace(/"/g, '""');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statement(name)) await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Makes every new session on the bench database log the plan of each statement it runs (auto_explain), so the
 * plans shown are those of the SQL the service really sends, whatever builds it. Undo with `disableAutoExplain`.
 */
export function enableAutoExplain(url: string): Promise<void> {
  return onDatabase(url, (name) => SETTINGS.map(([key, value]) => `ALTER DATABASE "${name}" SET ${key} = '${value}'`));
}

export function disableAutoExplain(url: string): Promise<void> {
  return onDatabase(url, (name) => SETTINGS.map(([key]) => `ALTER DATABASE "${name}" RESET ${key}`));
}

/** Statements every request runs that say nothing about the scenario. */
const NOISE = /api_keys|^SELECT 1$|^(BEGIN|COMMIT|ROLLBACK)/;

function plansIn(log: string): string[] {
  return log
    .split(/^\S+ \S+ \S+ \[\d+\] LOG: {2}duration: [\d.]+ ms {2}plan:\n/m)
    .slice(1)
    .map((entry) =>
      entry
        .split('\n')
        .filter((line) => line.startsWith('\t'))
        .map((line) => line.slice(1))
        .join('\n'),
    )
    .filter((plan) => plan && !NOISE.test(plan.replace(/^Query Text: /, '').trim()));
}

/** Sends each read scenario's request to each server and returns the plans of the statements it ran, in Markdown. */
export async function explainScenarios(
  servers: ServerUnderTest[],
  scenarios: Scenario[],
  fixtures: Fixtures,
  tap: LogTap,
): Promise<string> {
  const sections: string[] = [];
  for (const scenario of scenarios) {
    const request = scenario.requests(fixtures)();
    if (request.method !== 'GET') continue;
    for (const server of servers) {
      const send = (): Promise<Response> =>
        fetch(`${server.baseUrl}${request.path}`, { headers: { authorization: `Bearer ${fixtures.apiKey}` } });
      // Warm the caches first: the plans should show a server in use, not one that just started.
      await (await send()).text();
      tap.capturing = true;
      tap.take();
      const status = (await send()).status;
      await new Promise((done) => setTimeout(done, 500));
      tap.capturing = false;
      const plans = plansIn(tap.take());
      sections.push(`### ${scenario.name}: ${server.name} (\`GET ${request.path}\` → ${status})\n`);
      sections.push(
        plans.length > 0 ? plans.map((plan) => '```\n' + plan + '\n```\n').join('\n') : '(no plan captured)\n',
      );
    }
  }
  return sections.join('\n');
}
