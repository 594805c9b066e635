import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { captureLogs, type LogCapture } from './support/log-lines.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { UUID } from './support/assertions.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The request lines only (Nest's own lines have a `context`). */
const requestLines = (logs: LogCapture) => logs.lines.filter((line) => line.msg === 'request');

describe('request logs', () => {
  const logs = captureLogs('info');
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp({ logger: logs.logger });
    team = await sut.createTeam('Logging team');
  });
  afterAll(() => sut.close());
  beforeEach(() => logs.clear());

  it('writes one JSON line per request with the route template, never the concrete path or query', async () => {
    const workOrderId = randomUUID();
    const response = await sut
      .http()
      .get(`/v1/work-orders/${workOrderId}?search=secret-term`)
      .set(...bearer(team));
    // GET one takes no query parameters: refused (400) after routing, so the line has the route template.
    expect(response.status).toBe(400);

    const lines = requestLines(logs);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(ISO),
      msg: 'request',
      requestId: response.headers['x-request-id'],
      method: 'GET',
      route: '/v1/work-orders/:workOrderId',
      status: 400,
      durationMs: expect.any(Number),
      teamId: team.teamId,
      apiKeyId: team.apiKeyId,
    });
    expect(response.headers['x-request-id']).toMatch(UUID);
    const text = logs.text();
    for (const secret of [workOrderId, 'secret-term', team.apiKey, 'Bearer', 'authorization']) {
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });

  it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await sut.http().get('/health').set('X-Request-Id', 'proxy-7f3a.42');
    const replaced = await sut.http().get('/health').set('X-Request-Id', 'not valid <id>');
    expect(kept.headers['x-request-id']).toBe('proxy-7f3a.42');
    expect(replaced.headers['x-request-id']).toMatch(UUID);
    expect(requestLines(logs).map((line) => line.requestId)).toEqual([
      'proxy-7f3a.42',
      replaced.headers['x-request-id'],
    ]);
  });

  it('logs an unmatched path in full, /v1 prefix included, without its query string', async () => {
    await sut.http().get('/v1/no-such-thing?token=abc');
    await sut.http().get('/no-such-thing');
    expect(requestLines(logs).map((line) => [line.route, line.status])).toEqual([
      ['/v1/no-such-thing', 404],
      ['/no-such-thing', 404],
    ]);
    expect(logs.text()).not.toContain('token');
  });

  it('never logs request bodies, and logs rejected ones too', async () => {
    const created = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .send({ name: 'Body Secret Holdings', email: 'body-secret@example.com' });
    expect(created.status).toBe(201);
    const malformed = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .set('Content-Type', 'application/json')
      .send('{"name": "Body Secret');
    expect(malformed.status).toBe(400);

    expect(requestLines(logs).map((line) => [line.method, line.route, line.status])).toEqual([
      ['POST', '/v1/landlords', 201],
      ['POST', '/v1/landlords', 400],
    ]);
    expect(logs.text()).not.toContain('Body Secret');
    expect(logs.text()).not.toContain('body-secret');
  });

  it('keeps start-up quiet: no line per module or route at info', async () => {
    const quiet = captureLogs('info');
    const other = await createTestApp({ databaseUrl: sut.databaseUrl, logger: quiet.logger });
    await other.close();
    expect(quiet.lines).toEqual([]);
  });
});

describe('a server fault', () => {
  const logs = captureLogs('info');
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ logger: logs.logger });
  });
  afterAll(async () => {
    await sut.sql('ALTER TABLE IF EXISTS landlords_away RENAME TO landlords');
    await sut.close();
  });

  it('is logged at error with its stack and the request id the caller got', async () => {
    const team = await sut.createTeam();
    // A real fault, not a mock, and not an outage (that is a 503, logged at warn): the table the write needs is
    // gone, so the database answers an error the service has no meaning for.
    await sut.sql('ALTER TABLE landlords RENAME TO landlords_away');
    logs.clear();
    let response;
    try {
      response = await sut
        .http()
        .post('/v1/landlords')
        .set(...bearer(team))
        .send({ name: 'Outage Lettings' });
    } finally {
      await sut.sql('ALTER TABLE landlords_away RENAME TO landlords');
    }
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'Internal server error' });

    const requestId = response.headers['x-request-id'];
    const fault = logs.lines.find((line) => line.context === 'Exceptions');
    expect(fault).toMatchObject({ level: 'error', requestId, stack: expect.stringMatching(/\n\s+at /) });
    expect(logs.lines.find((line) => line.msg === 'request')).toMatchObject({
      level: 'error',
      requestId,
      route: '/v1/landlords',
      status: 500,
    });
    expect(logs.text()).not.toContain('Outage Lettings');
  });
});

describe('Nest messages and LOG_LEVEL', () => {
  it('writes Nest’s own messages in the same JSON shape, at debug', async () => {
    const logs = captureLogs('debug');
    const sut = await createTestApp({ logger: logs.logger });
    await sut.close();
    const nest = logs.lines.filter((line) => line.context === 'RouterExplorer');
    expect(nest.length).toBeGreaterThan(0);
    for (const line of nest) {
      expect(Object.keys(line).sort()).toEqual(['context', 'level', 'msg', 'time']);
      expect(line).toMatchObject({ level: 'debug', time: expect.stringMatching(ISO) });
    }
    // Routes are reported where they are: the probes outside /v1.
    expect(nest.map((line) => line.msg)).toContain('Mapped {/health/ready, GET} route');
  });

  it('LOG_LEVEL=warn drops the routine request lines', async () => {
    const logs = captureLogs('warn');
    const sut = await createTestApp({ logger: logs.logger });
    try {
      const team = await sut.createTeam();
      expect(
        (
          await sut
            .http()
            .get('/v1/contractors')
            .set(...bearer(team))
        ).status,
      ).toBe(200);
      expect((await sut.http().get('/v1/missing')).status).toBe(404);
      expect(logs.lines).toEqual([]);
    } finally {
      await sut.close();
    }
  });
});
