import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookDispatcher } from '../apps/api/src/webhooks/index.js';
import { expectError } from './support/assertions.js';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type Team,
  type TestApp,
} from './support/test-app.js';

// Webhooks (CONTRACT "Webhooks"): endpoints, signed deliveries to a real HTTP receiver, retries, disabling, the
// SSRF guard. Signatures are checked with the `standardwebhooks` package, not with the service's own code.

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: records every request and answers with the next status of `answers` (200 when empty). */
class Receiver {
  readonly receipts: Receipt[] = [];
  answers: number[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.receipts.push({ headers: request.headers, body });
        response.statusCode = this.answers.shift() ?? 200;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Waits until `count` requests arrived (the dispatcher works in the background). */
  async received(count: number): Promise<Receipt[]> {
    for (let waited = 0; this.receipts.length < count; waited += 20) {
      if (waited > 10_000) throw new Error(`the receiver got ${this.receipts.length} of ${count} deliveries`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.receipts;
  }
}

const FAST = {
  WEBHOOKS_ALLOW_HTTP: true,
  WEBHOOKS_ALLOW_PRIVATE: true,
  WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms',
  WEBHOOK_POLL_INTERVAL_MS: 50,
};

interface Endpoint {
  id: string;
  url: string;
  types: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  secret?: string;
}

interface Delivery {
  id: string;
  eventId: string;
  type: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

describe('webhooks', () => {
  let sut: TestApp;
  let team: Team;
  const receiver = new Receiver();

  beforeAll(async () => {
    sut = await createTestApp({ config: FAST });
    team = await sut.createTeam('Webhooks team');
    await receiver.start();
  });
  afterAll(async () => {
    await sut.close();
    await receiver.stop();
  });
  afterEach(async () => {
    // Each test starts with no endpoints and an empty receiver.
    await sut.sql('DELETE FROM webhook_endpoints WHERE team_id = $1', [team.teamId]);
    receiver.receipts.length = 0;
    receiver.answers = [];
  });

  const call = () => ({
    post: (path: string, body: object = {}) =>
      sut
        .http()
        .post(path)
        .set(...bearer(team))
        .send(body),
    put: (path: string, body: object) =>
      sut
        .http()
        .put(path)
        .set(...bearer(team))
        .send(body),
    get: (path: string) =>
      sut
        .http()
        .get(path)
        .set(...bearer(team)),
    delete: (path: string) =>
      sut
        .http()
        .delete(path)
        .set(...bearer(team)),
  });

  async function addEndpoint(body: object = {}): Promise<Endpoint> {
    const response = await call()
      .post('/v1/webhook-endpoints', { url: receiver.url, ...body })
      .expect(201);
    return (response.body as { data: Endpoint }).data;
  }

  async function deliveriesOf(endpoint: Endpoint): Promise<Delivery[]> {
    const response = await call().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).expect(200);
    return (response.body as { data: Delivery[] }).data;
  }

  /** Until the dispatcher has settled every due delivery. */
  async function settled(endpoint: Endpoint, state = 'succeeded'): Promise<Delivery[]> {
    for (let waited = 0; ; waited += 25) {
      const deliveries = await deliveriesOf(endpoint);
      if (deliveries.length > 0 && deliveries.every((delivery) => delivery.state === state)) return deliveries;
      if (waited > 10_000) throw new Error(`deliveries never became ${state}: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('manages endpoints: the secret only at creation and rotation, partial updates, delete', async () => {
    const created = await addEndpoint({ types: ['work_order.created'], description: 'Dispatch' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(created).toMatchObject({
      url: receiver.url,
      types: ['work_order.created'],
      enabled: true,
      disabledReason: null,
    });
    const read = (await call().get(`/v1/webhook-endpoints/${created.id}`).expect(200)).body as { data: Endpoint };
    expect(read.data.secret).toBeUndefined();
    const listed = (await call().get('/v1/webhook-endpoints').expect(200)).body as { data: Endpoint[] };
    expect(listed.data.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    const updated = await call()
      .put(`/v1/webhook-endpoints/${created.id}`, { types: null, enabled: false })
      .expect(200);
    expect((updated.body as { data: Endpoint }).data).toMatchObject({
      types: null,
      enabled: false,
      description: 'Dispatch',
    });
    const rotated = await call().post(`/v1/webhook-endpoints/${created.id}/rotate-secret`).expect(200);
    expect((rotated.body as { data: Endpoint }).data.secret).toMatch(/^whsec_/);
    expect((rotated.body as { data: Endpoint }).data.secret).not.toBe(created.secret);

    await call().delete(`/v1/webhook-endpoints/${created.id}`).expect(204);
    expectError(await call().get(`/v1/webhook-endpoints/${created.id}`), 404);
  });

  it('refuses a 21st endpoint, unknown types and bad URLs with 400', async () => {
    for (let i = 0; i < 20; i++) await addEndpoint();
    const refused = await call().post('/v1/webhook-endpoints', { url: receiver.url });
    expectError(refused, 400);
    expect((refused.body as { error: string }).error).toContain('at most 20 webhook endpoints');
    await sut.sql('DELETE FROM webhook_endpoints WHERE team_id = $1', [team.teamId]);
    expectError(await call().post('/v1/webhook-endpoints', { url: receiver.url, types: ['landlord.renamed'] }), 400);
    expectError(await call().post('/v1/webhook-endpoints', { url: 'not a url' }), 400);
    expectError(await call().post('/v1/webhook-endpoints', { url: 'ftp://example.com/x' }), 400);
    // `enabled` may be left out but not nulled (the fuzzer's find: null reached the NOT NULL column as a 500).
    const endpoint = await addEndpoint();
    const nulled = await call().put(`/v1/webhook-endpoints/${endpoint.id}`, { enabled: null });
    expectError(nulled, 400);
    expect((nulled.body as { error: string }).error).toContain('enabled must be a boolean');
    expect((await call().get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200)).body).toMatchObject({
      data: { enabled: true },
    });
  });

  it('delivers each event, signed per Standard Webhooks, byte for byte as the feed shows it', async () => {
    const endpoint = await addEndpoint();
    const landlord = await call().post('/v1/landlords', { name: 'Harriet Cole' }).expect(201);
    const [receipt] = await receiver.received(1);
    const event = JSON.parse(receipt.body) as { id: string; type: string; data: { object: unknown } };
    expect(event.type).toBe('landlord.created');
    expect(event.data.object).toEqual((landlord.body as { data: unknown }).data);
    expect(receipt.headers['webhook-id']).toBe(event.id);
    expect(
      new Webhook(endpoint.secret as string).verify(receipt.body, receipt.headers as Record<string, string>),
    ).toEqual(event);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        receipt.body,
        receipt.headers as Record<string, string>,
      ),
    ).toThrow();

    const feed = (await call().get('/v1/events?types=landlord.created').expect(200)).body as {
      data: Array<{ id: string }>;
    };
    const inFeed = feed.data.find((entry) => entry.id === event.id);
    expect(JSON.stringify(inFeed)).toBe(receipt.body);
    const [delivery] = await settled(endpoint);
    expect(delivery).toMatchObject({
      eventId: event.id,
      type: 'landlord.created',
      attempts: 1,
      lastStatus: 200,
      nextAttemptAt: null,
    });
    const metrics = (await sut.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^webhook_delivery_attempts_total\{outcome="succeeded"\} [1-9]/m);
    expect(metrics).toMatch(/^webhook_queue_depth \d+$/m);
    expect(metrics).toMatch(/^webhook_delivery_duration_seconds_count\{outcome="succeeded"\} [1-9]/m);
  });

  it('sends only the chosen types', async () => {
    await addEndpoint({ types: ['tenant.created'] });
    await call().post('/v1/landlords', { name: 'Not sent' }).expect(201);
    await call().post('/v1/tenants', { firstName: 'Priya', lastName: 'Shah' }).expect(201);
    const receipts = await receiver.received(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receipts.map((receipt) => (JSON.parse(receipt.body) as { type: string }).type)).toEqual(['tenant.created']);
  });

  it('retries on the schedule: 500, 500, then 200 is three attempts and one succeeded delivery', async () => {
    const endpoint = await addEndpoint();
    receiver.answers = [500, 500, 200];
    await call().post('/v1/landlords', { name: 'Third time lucky' }).expect(201);
    const receipts = await receiver.received(3);
    const [delivery] = await settled(endpoint);
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 3, lastStatus: 200, lastError: null });
    expect(new Set(receipts.map((receipt) => receipt.headers['webhook-id'])).size).toBe(1);
  });

  it('fails after the last retry; Retry sends it again', async () => {
    const endpoint = await addEndpoint();
    receiver.answers = [500, 500, 500, 500];
    await call().post('/v1/landlords', { name: 'Never answered well' }).expect(201);
    const [failed] = await settled(endpoint, 'failed');
    expect(failed).toMatchObject({
      attempts: 4,
      lastStatus: 500,
      lastError: 'The endpoint answered 500',
      nextAttemptAt: null,
    });
    await call().post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed.id}/retry`).expect(202);
    const [retried] = await settled(endpoint);
    expect(retried).toMatchObject({ id: failed.id, state: 'succeeded', attempts: 1 });
  });

  it('disables the endpoint at once on 410, and queues nothing for it after', async () => {
    const endpoint = await addEndpoint();
    receiver.answers = [410];
    await call().post('/v1/landlords', { name: 'Gone' }).expect(201);
    await settled(endpoint, 'failed');
    const read = (await call().get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200)).body as { data: Endpoint };
    expect(read.data).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });
    await call().post('/v1/landlords', { name: 'After gone' }).expect(201);
    expect(await deliveriesOf(endpoint)).toHaveLength(1);
    expectError(await call().post(`/v1/webhook-endpoints/${endpoint.id}/test`), 409);
  });

  it('disables an endpoint whose every delivery failed for 5 days', async () => {
    const endpoint = await addEndpoint();
    receiver.answers = [500];
    // Failing since just over 5 days (the first failure of the streak is remembered on the endpoint).
    await sut.sql(`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [
      endpoint.id,
    ]);
    await call().post(`/v1/webhook-endpoints/${endpoint.id}/test`).expect(202);
    await settled(endpoint, 'failed');
    const read = (await call().get(`/v1/webhook-endpoints/${endpoint.id}`).expect(200)).body as { data: Endpoint };
    expect(read.data).toMatchObject({ enabled: false, disabledReason: 'Every delivery failed for 5 days' });
    // Enabling it again starts afresh.
    const enabled = await call().put(`/v1/webhook-endpoints/${endpoint.id}`, { enabled: true }).expect(200);
    expect((enabled.body as { data: Endpoint }).data).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('sends a test ping to that endpoint only, never into the feed', async () => {
    const endpoint = await addEndpoint();
    const before = (await call().get('/v1/events?limit=100').expect(200)).body as { data: unknown[] };
    await call().post(`/v1/webhook-endpoints/${endpoint.id}/test`).expect(202);
    const [receipt] = await receiver.received(1);
    const ping = new Webhook(endpoint.secret as string).verify(receipt.body, receipt.headers as Record<string, string>);
    expect(ping).toMatchObject({ type: 'ping', data: { object: { id: endpoint.id } } });
    const after = (await call().get('/v1/events?limit=100').expect(200)).body as { data: unknown[] };
    expect(after.data).toHaveLength(before.data.length);
  });

  it('signs with the old secret too for 24 hours after a rotation', async () => {
    const endpoint = await addEndpoint();
    const rotated = (await call().post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200)).body as {
      data: Endpoint;
    };
    await call().post(`/v1/webhook-endpoints/${endpoint.id}/test`).expect(202);
    const [receipt] = await receiver.received(1);
    const headers = receipt.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.data.secret as string).verify(receipt.body, headers)).not.toThrow();
    expect(() => new Webhook(endpoint.secret as string).verify(receipt.body, headers)).not.toThrow();
  });

  it('shows another team none of the endpoints', async () => {
    const endpoint = await addEndpoint();
    const other = await sut.createTeam('Other webhooks team');
    expectError(
      await sut
        .http()
        .get(`/v1/webhook-endpoints/${endpoint.id}`)
        .set(...bearer(other)),
      404,
    );
    const listed = await sut
      .http()
      .get('/v1/webhook-endpoints')
      .set(...bearer(other))
      .expect(200);
    expect((listed.body as { data: unknown[] }).data).toEqual([]);
  });
});

describe('webhook SSRF guard', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://10.0.0.7/hook',
    'http://localhost/hook',
  ])('refuses %s at creation unless WEBHOOKS_ALLOW_PRIVATE=true', async (url) => {
    const strict = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true } });
    try {
      const team = await strict.createTeam();
      const response = await strict
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url });
      expectError(response, 400);
      expect((response.body as { error: string }).error).toContain('may not reach');
    } finally {
      await strict.close();
    }
  });

  it('refuses plain http unless WEBHOOKS_ALLOW_HTTP=true', async () => {
    const strict = await createTestApp();
    try {
      const team = await strict.createTeam();
      const response = await strict
        .http()
        .post('/v1/webhook-endpoints')
        .set(...bearer(team))
        .send({ url: 'http://hooks.example.com/x' });
      expectError(response, 400);
      expect((response.body as { error: string }).error).toBe('url must use https');
    } finally {
      await strict.close();
    }
  });

  /**
   * An endpoint at `url` (the receiver on 127.0.0.1, or `host` in its place) stored while private addresses were
   * allowed, then the service restarted with them refused (`strict`): what both tests below start from.
   */
  const storedThenRefused = async (host?: string) => {
    const databaseUrl = await createTestDatabase();
    const receiver = new Receiver();
    await receiver.start();
    const lenient = await createTestApp({ databaseUrl, config: FAST });
    const team = await lenient.createTeam();
    const url = host ? receiver.url.replace('127.0.0.1', host) : receiver.url;
    const created = await lenient
      .http()
      .post('/v1/webhook-endpoints')
      .set(...bearer(team))
      .send({ url })
      .expect(201);
    await lenient.close();
    const strict = await createTestApp({ databaseUrl, config: { ...FAST, WEBHOOKS_ALLOW_PRIVATE: false } });
    const id = (created.body as { data: { id: string } }).data.id;
    /** The endpoint's latest delivery once it was attempted `attempts` times and refused. */
    const refusedDelivery = async (attempts: number): Promise<Delivery> => {
      for (let waited = 0; ; waited += 25) {
        const [delivery] = (
          (
            await strict
              .http()
              .get(`/v1/webhook-endpoints/${id}/deliveries`)
              .set(...bearer(team))
          ).body as { data: Delivery[] }
        ).data;
        if (delivery.attempts >= attempts && delivery.lastError) return delivery;
        if (waited > 5_000) throw new Error('the delivery was never attempted');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const close = async (): Promise<void> => {
      await strict.close();
      await receiver.stop();
      await dropTestDatabase(databaseUrl);
    };
    return { receiver, strict, team, id, url, refusedDelivery, close };
  };

  // Issue 21, point 1: Node never calls the custom lookup for an IP-literal host, so such an endpoint (stored while
  // WEBHOOKS_ALLOW_PRIVATE=true) used to be delivered to on /test and /retry after the switch was off.
  it('checks an IP-literal host again at every delivery, /test and /retry included', async () => {
    const { receiver, strict, team, id, url, refusedDelivery, close } = await storedThenRefused();
    expect(new URL(url).hostname).toBe('127.0.0.1');
    try {
      await strict
        .http()
        .post(`/v1/webhook-endpoints/${id}/test`)
        .set(...bearer(team))
        .expect(202);
      const tested = await refusedDelivery(1);
      expect(tested.lastError).toBe(
        "url's host 127.0.0.1 resolves to a loopback, private, link-local or metadata address, which webhooks may not reach",
      );
      await strict
        .http()
        .post(`/v1/webhook-endpoints/${id}/deliveries/${tested.id}/retry`)
        .set(...bearer(team))
        .expect(202);
      const retried = await refusedDelivery(1);
      expect(retried.lastError).toContain('may not reach');
      await strict.app.get(WebhookDispatcher).idle();
      expect(receiver.receipts).toEqual([]);
      expect(strict.app.get(WebhookDispatcher).sent).toBeGreaterThanOrEqual(2);
    } finally {
      await close();
    }
  });

  it('checks the address again at every delivery', async () => {
    const { receiver, strict, team, id, refusedDelivery, close } = await storedThenRefused('localhost');
    try {
      await strict
        .http()
        .post(`/v1/webhook-endpoints/${id}/test`)
        .set(...bearer(team))
        .expect(202);
      expect((await refusedDelivery(1)).lastError).toContain('may not reach');
      expect(receiver.receipts).toEqual([]);
      expect(strict.app.get(WebhookDispatcher).sent).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
