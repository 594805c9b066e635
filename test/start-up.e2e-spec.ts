import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

/** Built by the test script (`scripts/ensure-build.mjs`) before Jest starts: the service as `npm start` runs it. */
const MAIN = fileURLToPath(new URL('../dist/apps/api/src/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Service {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

function startService(env: Record<string, string>): Service {
  const inherited = { ...process.env };
  // The service must choose its database from `env` alone (no DATABASE_URL: the embedded one).
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A port held open by the test (on every interface, as the service binds). */
function holdPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => resolve(server));
  });
}

const portOf = (server: Server): number => (server.address() as { port: number }).port;

async function freePort(): Promise<number> {
  const server = await holdPort();
  const port = portOf(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawning the built service takes seconds; on a loaded machine, many. */
const SPAWN_TIMEOUT_MS = 120_000;

async function waitFor(condition: () => boolean, what: string, timeoutMs = SPAWN_TIMEOUT_MS - 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; msg: string });

describe('start-up', () => {
  let busy: Server;
  const databases: string[] = [];
  const testDatabase = async (): Promise<string> => {
    const url = await createTestDatabase();
    databases.push(url);
    return url;
  };

  beforeAll(async () => {
    busy = await holdPort();
  });
  afterAll(async () => {
    // A failed test must not leave a service (and its embedded database) running.
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => busy.close(resolve));
    // The services were handed these databases; nothing else drops them.
    await Promise.all(databases.map((url) => dropTestDatabase(url)));
  });

  it(
    'prints a handful of lines, only after the port is bound, and stops cleanly on SIGTERM',
    async () => {
      const port = await freePort();
      const service = startService({ PORT: String(port), DATABASE_URL: await testDatabase() });
      await waitFor(() => service.output().includes('Demo dashboard account'), 'the start-up lines');
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

      const lines = jsonLines(service.output());
      expect(lines.map((line) => line.level)).toEqual(lines.map(() => 'info'));
      expect(lines.length).toBeLessThanOrEqual(9);
      const text = lines.map((line) => line.msg).join('\n');
      expect(text).toMatch(/^Database: PostgreSQL at 127\.0\.0\.1:\d+\/ppa_test_/m);
      expect(text).toMatch(/^Migrations: /m);
      expect(text).toContain(`Listening on port ${port}: API http://localhost:${port}/v1`);
      expect(text).toContain(`Swagger UI http://localhost:${port}/docs`);
      expect(text).toContain(`http://localhost:${port}/health/ready`);
      expect(text).toMatch(/API key ppk_[0-9A-Za-z]{32,}/);
      expect(text).toContain(`Dashboard (sign up, API keys, usage): http://localhost:${port}/dashboard`);
      // The printed demo account signs in to the dashboard: no shell command needed to get a key.
      const account = /sign in at \S+ with email (\S+) and password (\S+) /.exec(text);
      expect(account?.[1]).toBe('demo@example.com');
      const form = await fetch(`http://127.0.0.1:${port}/dashboard/sign-in`);
      const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0];
      const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
      const signIn = await fetch(`http://127.0.0.1:${port}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token, email: account?.[1] ?? '', password: account?.[2] ?? '' }).toString(),
      });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get('location')).toBe('/dashboard/keys');
      expect(text).not.toContain('/v1/health');
      expect(text).not.toContain('successfully started');

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(service.output()).toContain('SIGTERM: finishing in-flight requests and stopping');
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'with its port busy, says so in one line and exits non-zero without claiming to have started',
    async () => {
      const port = portOf(busy);
      const service = startService({ PORT: String(port), DATABASE_URL: await testDatabase() });
      expect(await service.exited).toBe(1);
      const lines = jsonLines(service.output());
      expect(lines.filter((line) => line.level === 'fatal').map((line) => line.msg)).toEqual([
        `Port ${port} is already in use; set PORT to a free port or stop what is using it`,
      ]);
      expect(service.output()).not.toMatch(/Listening|started|demo team/i);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'with its port busy, stops the embedded PostgreSQL it started',
    async () => {
      const port = portOf(busy);
      const databasePort = await freePort();
      const dataDir = `.data/test-port-busy-${databasePort}`;
      try {
        const service = startService({
          PORT: String(port),
          EMBEDDED_PG_PORT: String(databasePort),
          EMBEDDED_PG_DIR: dataDir,
        });
        expect(await service.exited).toBe(1);
        expect(service.output()).toContain(`embedded PostgreSQL on 127.0.0.1:${databasePort}`);
        expect(service.output()).toContain(`Port ${port} is already in use`);
        expect(await accepts(`postgres://postgres:postgres@127.0.0.1:${databasePort}/postgres`)).toBe(false);
      } finally {
        await rm(`${ROOT}/${dataDir}`, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT_MS,
  );
});
