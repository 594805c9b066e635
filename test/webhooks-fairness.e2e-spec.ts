import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { TEAM_SLOTS, WebhookDispatcher } from '../apps/api/src/webhooks/webhook-dispatcher.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { until as waitUntil } from './support/until.js';
import { slowAndFastTeams, WebhookReceiver } from './support/webhook-receiver.js';

// Issue 21, point 2: one team's slow endpoints must not delay another team's webhooks. The slow team's endpoints
// here never answer until the test lets them, so every assertion is about order (what was claimed while what was
// still in flight), not about time. Before the worker pool, the dispatcher claimed 10 deliveries FIFO across
// teams and waited for all 10: the other team's delivery waited for the slow team's timeouts.

const CONFIG = {
  WEBHOOKS_ALLOW_HTTP: true,
  WEBHOOKS_ALLOW_PRIVATE: true,
  WEBHOOK_RETRY_SCHEDULE: '100ms',
  WEBHOOK_POLL_INTERVAL_MS: 50,
  // Longer than the test: a held request is answered only when the test releases it.
  WEBHOOK_TIMEOUT_MS: 60_000,
};

/** Holds every request to /slow/… until released; answers /fast at once. */
class HoldingReceiver extends WebhookReceiver {
  readonly held: ServerResponse[] = [];

  get arrivals(): string[] {
    return this.paths;
  }

  protected override answer(path: string, response: ServerResponse): void {
    if (path.startsWith('/slow/')) this.held.push(response);
    else response.end('ok');
  }

  slowArrivals(): number {
    return this.arrivals.filter((path) => path.startsWith('/slow/')).length;
  }

  /** Answers the held request `index` (200). */
  release(index: number): void {
    this.held[index].end('ok');
  }

  override async stop(): Promise<void> {
    for (const response of this.held) if (!response.writableEnded) response.end('ok');
    await super.stop();
  }
}

const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitUntil(condition, what, timeoutMs, 20);

describe('webhook delivery across teams', () => {
  let sut: TestApp;
  let slow: Team;
  let fast: Team;
  const receiver = new HoldingReceiver();

  beforeAll(async () => {
    await receiver.start();
    sut = await createTestApp({ config: CONFIG });
    ({ slow, fast } = await slowAndFastTeams(sut, receiver.base));
  });
  afterAll(async () => {
    await receiver.stop();
    await sut.close();
  });

  const leasedOf = async (team: Team): Promise<number> =>
    (
      await sut.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE team_id = $1 AND state = 'pending' AND locked_until > now()`,
        [team.teamId],
      )
    )[0].n;

  it('caps a team’s attempts in flight, serves another team meanwhile, and refills a slot as soon as it frees', async () => {
    // 20 deliveries due at once for the slow team: it gets TEAM_SLOTS of them in flight, no more.
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(slow))
      .send({ name: 'Fans out to 20 slow endpoints' })
      .expect(201);
    await until(() => receiver.held.length === TEAM_SLOTS, `${TEAM_SLOTS} slow deliveries in flight`);

    // The other team's delivery is claimed and answered while every slow one is still in flight.
    await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(fast))
      .send({ name: 'One fast endpoint' })
      .expect(201);
    await until(() => receiver.arrivals.includes('/fast'), 'the fast team’s delivery');
    expect(receiver.held.every((response) => !response.writableEnded)).toBe(true);
    // The claim that took the fast delivery saw 16 slow ones due, and took none: the cap held.
    expect(receiver.slowArrivals()).toBe(TEAM_SLOTS);
    expect(await leasedOf(slow)).toBe(TEAM_SLOTS);
    expect(sut.app.get(WebhookDispatcher).active).toBe(TEAM_SLOTS);

    // One slow attempt ends: the next slow delivery is claimed while the other three are still held.
    receiver.release(0);
    await until(() => receiver.slowArrivals() === TEAM_SLOTS + 1, 'a slow delivery in the freed slot');
    expect(receiver.held.slice(1, TEAM_SLOTS).every((response) => !response.writableEnded)).toBe(true);

    // Let everything through: every slow delivery arrives once and succeeds.
    for (let answered = 1; answered < 20; answered++) {
      await until(() => receiver.held.length > answered, `slow delivery ${answered + 1}`);
      for (let i = answered; i < receiver.held.length; i++) if (!receiver.held[i].writableEnded) receiver.release(i);
    }
    await until(
      async () =>
        (
          await sut.sql<{ n: number }>(
            `SELECT count(*)::int AS n FROM webhook_deliveries WHERE team_id = $1 AND state = 'succeeded'`,
            [slow.teamId],
          )
        )[0].n === 20,
      'all 20 slow deliveries to succeed',
    );
    expect(receiver.slowArrivals()).toBe(20);
    expect(new Set(receiver.arrivals.filter((path) => path.startsWith('/slow/'))).size).toBe(20);
  });
});
