import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { TEAM_SLOTS } from '../../apps/api/src/webhooks/webhook-dispatcher.js';
import { bearer, createTestApp, type Team, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { slowAndFastTeams, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhook probes from issue 21, kept running: the SSRF guard over every host form that names a refused address,
 * at creation and at delivery (endpoints planted by SQL, as if stored while `WEBHOOKS_ALLOW_PRIVATE=true`), and
 * the fairness scenario (a team of 20 slow endpoints beside a team with one fast endpoint). Assertions are about
 * what reached the receiver and in what order; the times are printed, never asserted (docs/reliability.md).
 */

/** Host forms that reach this machine's receiver (listening on `::`, dual stack) when nothing stops them. */
const LOCAL_FORMS = [
  '127.0.0.1',
  '127.1',
  '0x7f000001',
  '2130706433',
  '0.0.0.0',
  'localhost',
  '[::1]',
  '[::]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
];
/** Host forms of refused addresses that do not route here: without the guard they fail otherwise (or hang). */
const REMOTE_FORMS = [
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[2002:7f00:1::]',
  '[64:ff9b::a9fe:a9fe]',
  '[2001:db8::1]',
  '169.254.169.254',
  '10.0.0.1',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '100.64.0.1',
];

const REFUSED = 'which webhooks may not reach';

/** Answers `/slow/…` after `sleepMs`, counting how many are open at once; anything else at once. */
class CountingReceiver extends WebhookReceiver {
  /** Slow requests open right now, and the most open at once. */
  open = 0;
  maxOpen = 0;
  sleepMs = 0;

  protected override answer(path: string, response: ServerResponse): void {
    if (!path.startsWith('/slow/')) {
      response.end('ok');
      return;
    }
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    // In flight while the sender waits: until the answer, or until the sender gives up (its timeout closes the
    // connection) — with a sleep as long as the timeout, the sender's next attempt may arrive before this timer.
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      this.open--;
    };
    response.on('close', close);
    setTimeout(() => {
      close();
      response.end('ok');
    }, this.sleepMs);
  }
}

describe('webhook SSRF guard, every host form, at creation and at delivery', () => {
  let sut: TestApp;
  let team: Team;
  const receiver = new CountingReceiver();

  beforeAll(async () => {
    await receiver.start('::');
    sut = await createTestApp({
      config: {
        WEBHOOKS_ALLOW_HTTP: true,
        WEBHOOK_RETRY_SCHEDULE: '1h',
        WEBHOOK_POLL_INTERVAL_MS: 50,
        WEBHOOK_TIMEOUT_MS: 2_000,
      },
    });
    team = await sut.createTeam('SSRF probes');
  });
  afterAll(async () => {
    await sut?.close();
    await receiver.stop();
  });

  const urlOf = (host: string): string => `http://${host}:${receiver.port}/hook`;

  it('the local forms do reach the receiver when nothing checks them (so the probes below can fail)', async () => {
    for (const host of LOCAL_FORMS) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        httpRequest(urlOf(host), { method: 'POST' }, (answer) => {
          answer.resume();
          resolve(answer.statusCode);
        })
          .on('error', reject)
          .end();
      });
      expect([host, status]).toEqual([host, 200]);
    }
    expect(receiver.paths).toHaveLength(LOCAL_FORMS.length);
    receiver.paths.length = 0;
  });

  it('refuses every form at creation and on update (400), and accepts a public literal', async () => {
    const accepted = await sut
      .http()
      .post('/v1/webhook-endpoints')
      .set(...bearer(team))
      .send({ url: 'http://[2606:4700:4700::1111]/hook' })
      .expect(201);
    const id = (accepted.body as { data: { id: string } }).data.id;
    const answers: Array<[string, number, string]> = [];
    for (const host of [...LOCAL_FORMS, ...REMOTE_FORMS]) {
      const created = await sut
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: urlOf(host) });
      const updated = await sut
        .http()
        .put(`/v1/webhook-endpoints/${id}`)
        .set(...bearer(team))
        .send({ url: urlOf(host) });
      for (const answer of [created, updated]) {
        answers.push([host, answer.status, (answer.body as { error?: string }).error ?? '']);
      }
    }
    expect(answers.filter(([, status, error]) => status !== 400 || !error.includes(REFUSED))).toEqual([]);
    await sut.sql('DELETE FROM webhook_endpoints WHERE team_id = $1', [team.teamId]);
  });

  it('refuses every form at delivery, on /test and on /retry, and nothing reaches the receiver', async () => {
    const hosts = [...LOCAL_FORMS, ...REMOTE_FORMS];
    const ids = new Map<string, string>();
    for (const host of hosts) {
      const id = randomUUID();
      ids.set(host, id);
      // As if stored while WEBHOOKS_ALLOW_PRIVATE=true (the API refuses these now).
      await sut.sql(
        `INSERT INTO webhook_endpoints (team_id, id, url, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, now(), now())`,
        [team.teamId, id, urlOf(host), `whsec_${Buffer.alloc(32, 1).toString('base64')}`],
      );
    }
    const lastDelivery = async (id: string) =>
      (
        (
          await sut
            .http()
            .get(`/v1/webhook-endpoints/${id}/deliveries`)
            .set(...bearer(team))
            .expect(200)
        ).body as { data: Array<{ id: string; attempts: number; lastError: string | null }> }
      ).data[0];
    const errors = async (): Promise<Array<[string, string | null]>> => {
      const seen: Array<[string, string | null]> = [];
      for (const host of hosts) {
        const delivery = await lastDelivery(ids.get(host) as string);
        seen.push([host, delivery.attempts > 0 ? delivery.lastError : 'not attempted yet']);
      }
      return seen;
    };
    const allRefused = async (): Promise<boolean> =>
      (await errors()).every(([, error]) => error !== null && error.includes(REFUSED));

    for (const host of hosts) {
      await sut
        .http()
        .post(`/v1/webhook-endpoints/${ids.get(host)}/test`)
        .set(...bearer(team))
        .expect(202);
    }
    await until(allRefused, 'every /test delivery to be refused', 30_000).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await errors())}`);
    });
    for (const host of hosts) {
      const id = ids.get(host) as string;
      await sut
        .http()
        .post(`/v1/webhook-endpoints/${id}/deliveries/${(await lastDelivery(id)).id}/retry`)
        .set(...bearer(team))
        .expect(202);
    }
    await until(allRefused, 'every retried delivery to be refused', 30_000);
    expect(receiver.paths).toEqual([]);
  });
});

describe('webhook fairness: a team of 20 slow endpoints beside a team with one fast endpoint', () => {
  let sut: TestApp;
  let slow: Team;
  let fast: Team;
  const receiver = new CountingReceiver();
  /** How long each slow endpoint takes to answer; `WEBHOOK_FAIRNESS_SLEEP_MS=10000` is the scenario of issue 21. */
  const sleepMs = Number(process.env.WEBHOOK_FAIRNESS_SLEEP_MS ?? 2_000);

  beforeAll(async () => {
    receiver.sleepMs = sleepMs;
    await receiver.start('::');
    // Default timeout (10 s); no retry within the test, so each slow delivery is attempted once.
    sut = await createTestApp({
      config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOK_RETRY_SCHEDULE: '1h' },
    });
    ({ slow, fast } = await slowAndFastTeams(sut, receiver.base));
  });
  afterAll(async () => {
    await sut?.close();
    await receiver.stop();
  });

  it('delivers the fast team’s event while the slow team’s are in flight, never more than TEAM_SLOTS of them', async () => {
    const started = Date.now();
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(slow))
      .send({ name: 'Twenty slow endpoints' })
      .expect(201);
    await until(() => receiver.open > 0, 'a slow delivery in flight');
    const fastWritten = Date.now();
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(fast))
      .send({ name: 'One fast endpoint' })
      .expect(201);
    await until(() => receiver.paths.includes('/fast'), 'the fast delivery', 120_000);
    const fastDelay = Date.now() - fastWritten;
    const openWhenFastArrived = receiver.open;
    await until(
      async () =>
        (
          await sut.sql<{ n: number }>(
            `SELECT count(*)::int AS n FROM webhook_deliveries WHERE team_id = $1 AND attempts = 1 AND locked_until IS NULL`,
            [slow.teamId],
          )
        )[0].n === 20,
      'every slow delivery attempted and recorded',
      300_000,
    );
    console.log(
      `webhook fairness: slow endpoints sleep ${sleepMs} ms; the fast team's delivery arrived ${fastDelay} ms after ` +
        `its write; the slow team's 20 took ${Date.now() - started} ms; at most ${receiver.maxOpen} slow in flight`,
    );
    expect(openWhenFastArrived).toBeGreaterThan(0);
    expect(receiver.maxOpen).toBe(TEAM_SLOTS);
    expect(receiver.paths.filter((path) => path.startsWith('/slow/')).sort()).toHaveLength(20);
  });
});
