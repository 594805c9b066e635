import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { Response } from 'supertest';
import { ManualClock } from '@app/common';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { contractorInput } from './factories/contractors.js';
import { rateHeaders, START } from './rate-limit.suite.js';
import {
  CLOSED_REDIS_URL,
  deleteRateLimitKeys,
  pingRedis,
  redisSuitesRun,
  requireRedis,
  TEST_REDIS_URL,
} from './support/redis.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Decided before any test is declared (top-level await); see the conditional describe below.
const redisUp = await pingRedis(TEST_REDIS_URL);

/** Small limits, so that a request passing because it was limited could not be mistaken for one let through. */
const config = { RATE_LIMIT_PER_MINUTE: 3, RATE_LIMIT_WRITES_PER_MINUTE: 2 };

let warnings: jest.Spied<Logger['warn']>;
beforeEach(() => {
  warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warnings.mockRestore());

const rateLimitWarnings = (): string[] =>
  warnings.mock.calls
    .map(([message]) => String(message))
    .filter((message) => /rate-limit store unavailable/.test(message));

function expectUnlimited(responses: Response[], status: number): void {
  expect(
    responses.map((response) => [response.status, rateHeaders(response), response.headers['retry-after']]),
  ).toEqual(responses.map(() => [status, undefined, undefined]));
}

/**
 * Documented choice (docs/rate-limits.md): when the Redis behind the limits cannot be reached, requests are
 * served unlimited, without rate-limit headers, and a warning is logged; an outage of the limiter must not
 * become an outage of the API.
 */
describe('rate limits when Redis cannot be reached', () => {
  const clock = new ManualClock(START);
  let sut: TestApp;
  let key: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp({ clock, config: { ...config, REDIS_URL: CLOSED_REDIS_URL } });
    key = await sut.createTeam();
  });
  afterAll(() => sut?.close());

  // Commands fail at once with the offline queue off: each request would otherwise wait out a connect or
  // command timeout (1-2 s), and 20 of them would overrun this test's time limit many times over.
  it('fails open, at once: requests pass with no rate-limit headers, and one warning is logged', async () => {
    const responses: Response[] = [];
    for (let i = 0; i < 10; i++) {
      responses.push(
        await sut
          .http()
          .post('/v1/contractors')
          .set(...bearer(key))
          .send(contractorInput()),
      );
      responses.push(
        await sut
          .http()
          .get('/v1/contractors')
          .set(...bearer(key)),
      );
    }
    expectUnlimited(
      responses.filter((_, i) => i % 2 === 0),
      201,
    );
    expectUnlimited(
      responses.filter((_, i) => i % 2 === 1),
      200,
    );
    // The reason shows the command was refused without touching the network, not that it timed out.
    expect(rateLimitWarnings()).toEqual([expect.stringMatching(/enableOfflineQueue/)]);

    // Repeated every 10 s of outage, not on every request.
    clock.advance(10_001);
    await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(key));
    expect(rateLimitWarnings()).toHaveLength(2);
  }, 10_000);

  it('still answers 401 to unauthenticated requests', async () => {
    const response = await sut.http().get('/v1/contractors');
    expect({ status: response.status, headers: rateHeaders(response) }).toEqual({ status: 401, headers: undefined });
  });
});

/** A TCP relay to the real Redis that the test can cut and restore, to simulate an outage mid-run. */
class CuttableRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The target URL as seen through the relay (same database and credentials). */
  url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }
}

// Skipped with a loud warning without Redis on a developer's machine; under CI (which has Redis) it fails.
(redisSuitesRun(redisUp, 'Redis lost and back mid-run') ? describe : describe.skip)(
  'rate limits when Redis goes away mid-run',
  () => {
    const clock = new ManualClock(START);
    const relay = new CuttableRelay(new URL(TEST_REDIS_URL));
    let sut: TestApp;
    let key: CreatedKey;

    beforeAll(async () => {
      requireRedis(redisUp);
      await relay.open();
      sut = await createTestApp({ clock, config: { ...config, REDIS_URL: relay.url() } });
      key = await sut.createTeam();
    });
    afterAll(async () => {
      await sut?.close();
      await relay.cut();
      if (key) await deleteRateLimitKeys([key.apiKeyId]);
    });

    const read = () =>
      sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(key));

    it('limits, serves unlimited while Redis is away, and limits again with the same window once it is back', async () => {
      expect([(await read()).status, (await read()).status, (await read()).status, (await read()).status]).toEqual([
        200, 200, 200, 429,
      ]);

      await relay.cut();
      const during: Response[] = [];
      for (let i = 0; i < 5; i++) during.push(await read());
      expectUnlimited(during, 200);
      expect(rateLimitWarnings()).toHaveLength(1);

      await relay.open();
      // The client reconnects on its own backoff (well under a second for a short outage); wait for it, bounded.
      let back: Response | undefined;
      for (let attempt = 0; attempt < 100 && !back; attempt++) {
        const response = await read();
        if (rateHeaders(response)) back = response;
        else await sleep(100);
      }
      // The window kept in Redis survived the outage: the 3 counted reads still fill it.
      expect(back && { status: back.status, headers: rateHeaders(back) }).toMatchObject({
        status: 429,
        headers: { limit: 3, remaining: 0 },
      });
    }, 30_000);
  },
);
