import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebhookDispatcher } from '../apps/api/src/webhooks/index.js';
import { bearer, createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';
import { until as waitUntil } from './support/until.js';

// Webhook deliveries shared by several instances of the service on one database: every attempt sent by exactly
// one instance, and a delivery whose sender is killed mid-attempt sent again once its lease runs out.

jest.setTimeout(120_000);

const MAIN = fileURLToPath(new URL('../dist/apps/api/src/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The same settings for an instance in this process and for a spawned one (environment text). */
const FAST = {
  WEBHOOKS_ALLOW_HTTP: true,
  WEBHOOKS_ALLOW_PRIVATE: true,
  WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms',
  WEBHOOK_POLL_INTERVAL_MS: 50,
};
const FAST_ENV = Object.fromEntries(Object.entries(FAST).map(([name, value]) => [name, String(value)]));

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Records every delivery; `hold` keeps the next request unanswered (a receiver that hangs). */
function receiver(): {
  server: Server;
  receipts: Receipt[];
  url: () => string;
  held: ServerResponse[];
  hold: { next: boolean };
} {
  const receipts: Receipt[] = [];
  const held: ServerResponse[] = [];
  const hold = { next: false };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      receipts.push({ headers: request.headers, body });
      if (hold.next) {
        hold.next = false;
        held.push(response);
        return;
      }
      response.end('ok');
    });
  });
  return {
    server,
    receipts,
    held,
    hold,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
  };
}

const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) =>
  waitUntil(condition, what, timeoutMs, 25);

describe('webhook deliveries across instances', () => {
  let databaseUrl: string;
  const sink = receiver();

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const response of sink.held) response.destroy();
    sink.server.closeAllConnections();
    await new Promise((resolve) => sink.server.close(resolve));
    await dropTestDatabase(databaseUrl);
  });

  it('two instances share the queue and never send an event twice', async () => {
    const first: TestApp = await createTestApp({ databaseUrl, config: FAST });
    const second: TestApp = await createTestApp({ databaseUrl, config: FAST });
    try {
      const team = await first.createTeam('Shared queue team');
      await first
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: sink.url() })
        .expect(201);
      const writes = Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? first : second)
          .http()
          .post('/v1/landlords')
          .set(...bearer(team))
          .send({ name: `Landlord ${i}` })
          .expect(201),
      );
      await Promise.all(writes);
      await until(() => sink.receipts.length >= 30, '30 deliveries');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids = sink.receipts.map((receipt) => receipt.headers['webhook-id']);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      const sent = first.app.get(WebhookDispatcher).sent + second.app.get(WebhookDispatcher).sent;
      expect(sent).toBe(30);
      const rows = await first.sql<{ attempts: number; state: string }>(
        'SELECT attempts, state FROM webhook_deliveries WHERE team_id = $1',
        [team.teamId],
      );
      expect(rows.every((row) => row.attempts === 1 && row.state === 'succeeded')).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
    sink.receipts.length = 0;
  });

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'a delivery whose instance gets %s mid-attempt is not lost: the next instance sends it',
    async (signal) => {
      sink.receipts.length = 0;
      const env = {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        ...FAST_ENV,
        WEBHOOK_TIMEOUT_MS: '1000',
      };
      const start = (port: number): ChildProcess =>
        spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
      const api = await createTestApp({ databaseUrl, config: { ...FAST, WEBHOOK_POLL_INTERVAL_MS: 3_600_000 } });
      // This in-test instance only makes records: its dispatcher stops at once, so the child processes do the sending.
      await api.app.get(WebhookDispatcher).beforeApplicationShutdown();
      const team = await api.createTeam(`Stopped instance team (${signal})`);
      await api
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: sink.url() })
        .expect(201);

      sink.hold.next = true;
      const doomed = start(0);
      try {
        await api
          .http()
          .post('/v1/landlords')
          .set(...bearer(team))
          .send({ name: 'Delivered despite a kill' })
          .expect(201);
        await until(() => sink.receipts.length === 1, 'the first attempt');
        // SIGKILL: the attempt dies with the process, and its lease runs out. SIGTERM: the attempt under way finishes
        // (here it times out: the receiver never answers), its failure is recorded and retried by the next instance.
        const exited = new Promise<number | null>((resolve) => doomed.once('exit', (code) => resolve(code)));
        doomed.kill(signal);
        const code = await exited;
        if (signal === 'SIGTERM') expect(code).toBe(0);

        const survivor = start(0);
        try {
          await until(() => sink.receipts.length === 2, 'the attempt after the lease ran out');
          const [killed, resent] = sink.receipts;
          expect(resent.headers['webhook-id']).toBe(killed.headers['webhook-id']);
          expect(resent.body).toBe(killed.body);
          await until(async () => {
            const [row] = await api.sql<{ state: string }>('SELECT state FROM webhook_deliveries WHERE team_id = $1', [
              team.teamId,
            ]);
            return row?.state === 'succeeded';
          }, 'the delivery to succeed');
          const [row] = await api.sql<{ attempts: number }>(
            'SELECT attempts FROM webhook_deliveries WHERE team_id = $1',
            [team.teamId],
          );
          expect(row.attempts).toBe(2);
        } finally {
          survivor.kill('SIGTERM');
          await new Promise((resolve) => survivor.once('exit', resolve));
        }
      } finally {
        if (doomed.exitCode === null && doomed.signalCode === null) doomed.kill('SIGKILL');
        await api.close();
      }
    },
  );
});
