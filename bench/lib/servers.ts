import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './database.js';

export interface ServerUnderTest {
  /** `baseline`: the service built at another commit (`--baseline`), for an A/B in the same run. */
  name: 'service' | 'floor' | 'baseline';
  baseUrl: string;
  process: ChildProcess;
  /** The last lines the process wrote, for the report when it fails. */
  output: string[];
}

/** A port the OS reports free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Limits far above what the load reaches: every request goes through the limiter, none is refused. */
const UNREACHABLE_LIMIT = '100000000';

/** The service starts as `npm start` starts it: the same Node flags, read from package.json's start script. */
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
  .scripts.start;
const COMMAND = {
  service: START_SCRIPT.replace(/^node\s+/, '').split(/\s+/),
  baseline: START_SCRIPT.replace(/^node\s+/, '').split(/\s+/),
  floor: ['dist/bench/floor/server.js'],
} as const;

/**
 * Starts a server; `root` is where it runs from (the baseline's exported build; this checkout otherwise), and
 * `uploadDir` the folder its uploads go to (the service's `STORAGE_DIR`, the floor's `FLOOR_UPLOAD_DIR`): the
 * runner's temporary folder, removed after the run.
 */
export async function startServer(
  name: ServerUnderTest['name'],
  databaseUrl: string,
  uploadDir: string,
  root: string = ROOT,
): Promise<ServerUnderTest> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: UNREACHABLE_LIMIT,
    RATE_LIMIT_WRITES_PER_MINUTE: UNREACHABLE_LIMIT,
    // The webhook scenario's receiver listens on 127.0.0.1 (http): allowed here only.
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // Production needs the dashboard's form-signing key (docs/dashboard.md); any will do for a benchmark.
    DASHBOARD_SECRET: process.env.DASHBOARD_SECRET ?? randomBytes(32).toString('base64url'),
    // And the key that signs attachments' download URLs (docs/attachments.md).
    ATTACHMENT_URL_SECRET: process.env.ATTACHMENT_URL_SECRET ?? randomBytes(32).toString('base64url'),
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: uploadDir,
    FLOOR_UPLOAD_DIR: uploadDir,
  };
  // The in-memory limiter, as the floor has: a Redis round trip would measure Redis, not the service.
  delete env.REDIS_URL;
  // BENCH_PROFILE_DIR: each server writes a CPU profile there when it stops (.cpuprofile, for Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, ...COMMAND[name]], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: ServerUnderTest = { name, baseUrl: `http://127.0.0.1:${port}`, process: child, output: [] };
  const keep = (chunk: Buffer): void => {
    server.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    server.output.splice(0, Math.max(0, server.output.length - 40));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitUntilReady(server, 90_000);
  return server;
}

async function waitUntilReady(server: ServerUnderTest, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) {
      throw new Error(`${server.name} exited with ${server.process.exitCode}:\n${server.output.join('\n')}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}/health/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${server.name} was not ready within ${timeoutMs / 1000}s:\n${server.output.join('\n')}`);
}

export async function stopServer(server: ServerUnderTest): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise<void>((done) => server.process.once('exit', () => done()));
  server.process.kill('SIGTERM');
  const timer = setTimeout(() => server.process.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process in MiB: `VmRSS` now, or `VmHWM` (the peak since it started). */
export function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's parent and CPU time (user + system, ms) from its `/proc/<pid>/stat` line. */
function statOf(stat: string): { parent: number; cpuMs: number } {
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    parent: Number(fields[1]),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND,
  };
}

/** CPU time (user + system) the process has used so far, in ms; from /proc/<pid>/stat. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    return statOf(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuMs;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of a process and each of its children, in ms by process id: the database cluster's postmaster, the
 * servers' backends and its own background processes (checkpointer, WAL writer, autovacuum), whose work a run's
 * writes cause too. `cpuSince` takes two of these apart; undefined where there is no /proc.
 */
export function processTreeCpuMs(pid: number): Map<number, number> | undefined {
  const times = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined; // No /proc (not Linux): nothing to report, as cpuTimeMs.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { parent, cpuMs } = statOf(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (Number(entry) === pid || parent === pid) times.set(Number(entry), cpuMs);
    } catch {
      // Gone meanwhile.
    }
  }
  return times;
}

/**
 * The CPU time the processes of `after` spent since `before` (a process new since then: all of its time). One that
 * ended in between takes its time with it: an undercount, never a negative (the servers' pools keep their backends
 * for the whole run; autovacuum's workers come and go).
 */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, time] of after) total += Math.max(0, time - (before.get(pid) ?? 0));
  return total;
}

/** Samples VmRSS every 100 ms until stopped; returns the highest seen. */
export function sampleRss(pid: number): () => number | undefined {
  let peak: number | undefined;
  const sample = (): void => {
    const rss = memoryMiB(pid, 'VmRSS');
    if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss;
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}
