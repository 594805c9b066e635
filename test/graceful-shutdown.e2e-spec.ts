import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

// SIGTERM with requests in flight (reliability issue, faults): the service as `npm start` runs it stops taking
// connections, answers every request it has begun to receive — including one whose body is still arriving — and
// exits 0; every write it acknowledged is in the database.

const MAIN = fileURLToPath(new URL('../dist/apps/api/src/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT_MS = 120_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(condition: () => boolean, what: string, timeoutMs = TIMEOUT_MS - 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A raw HTTP/1.1 exchange whose request is written in parts; resolves with the whole answer once the server closes. */
function rawExchange(port: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}

describe('SIGTERM with requests in flight', () => {
  let databaseUrl: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await dropTestDatabase(databaseUrl);
  });

  it(
    'answers every request it began to receive, a body still arriving included, then exits 0 with every write kept',
    async () => {
      const port = await freePort();
      const inherited: NodeJS.ProcessEnv = { ...process.env };
      delete inherited.JEST_WORKER_ID;
      const service = spawn(process.execPath, [MAIN], {
        cwd: ROOT,
        env: {
          ...inherited,
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          PORT: String(port),
          DATABASE_URL: databaseUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = service;
      let output = '';
      service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => service.on('exit', (code) => resolve(code)));
      await until(() => /API key (ppk_\w+)/.test(output), 'the demo key in the start-up lines');
      const apiKey = /API key (ppk_\w+)/.exec(output)?.[1] ?? '';
      const base = `http://127.0.0.1:${port}`;
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

      // A request whose headers and half its body have arrived when the signal comes.
      const body = JSON.stringify({ name: 'Slow upload Ltd', email: 'slow@example.com' });
      const slow = rawExchange(port);
      await new Promise<void>((resolve) => slow.socket.once('connect', resolve));
      slow.socket.write(
        `POST /v1/landlords HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      // Twenty writes under way at the same moment.
      const writes = Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/v1/landlords`, { method: 'POST', headers, body: JSON.stringify({ name: `Landlord ${i}` }) }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));

      service.kill('SIGTERM');
      await until(() => output.includes('SIGTERM: finishing in-flight requests'), 'the SIGTERM line');
      // New connections are soon refused…
      let refused = false;
      for (let i = 0; i < 100 && !refused; i++) {
        refused = await fetch(`${base}/health`).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(refused).toBe(true);
      // …but the upload under way finishes and is answered.
      await new Promise((resolve) => setTimeout(resolve, 300));
      slow.socket.write(body.slice(10));

      const answers = await Promise.all(writes);
      const created = await Promise.all(
        answers.map(async (answer) => ({ status: answer.status, json: await answer.json() })),
      );
      expect(created.map(({ status }) => status)).toEqual(created.map(() => 201));
      const slowAnswer = await slow.answer;
      expect(slowAnswer).toMatch(/^HTTP\/1\.1 201 /);
      const slowId = /"id":"([0-9a-f-]{36})"/.exec(slowAnswer)?.[1];
      expect(await exited).toBe(0);
      // Nothing failed on the way out: the last usage batch was written before the database closed.
      expect(output).not.toMatch(/"level":"(warn|error|fatal)"/);

      // Every acknowledged write is there (the service has stopped: nothing could add them later).
      const ids = [...created.map(({ json }) => (json as { data: { id: string } }).data.id), slowId];
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string }>('SELECT id FROM landlords WHERE id = ANY($1::uuid[])', [
          ids,
        ]);
        expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
        expect(ids).toHaveLength(21);
        // The usage of those 21 answers (recorded in memory, written in batches) reached the database too.
        const usage = await client.query<{ requests: number }>(
          "SELECT sum(requests)::int AS requests FROM api_key_usage_daily WHERE status_class = '2xx-3xx'",
        );
        expect(usage.rows[0].requests).toBeGreaterThanOrEqual(21);
      } finally {
        await client.end();
      }
    },
    TIMEOUT_MS,
  );
});
