import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

/**
 * Requests with a valid key that something refuses before any route runs — an unknown route, a method the path
 * does not offer, malformed JSON, a body over 1 MiB, a body that is not JSON — are counted like any other and
 * carry the X-RateLimit-* headers, so they cannot be sent without limit.
 */
describe('refusals with a valid key count against the limits', () => {
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    sut = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 5, RATE_LIMIT_WRITES_PER_MINUTE: 100 } });
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  const remaining = (response: Response): number => Number(response.headers['x-ratelimit-remaining']);

  it('counts every kind of early refusal, shows the headers on each, then answers 429', async () => {
    const refusals: Array<[number, () => Promise<Response>]> = [
      [
        404,
        () =>
          sut
            .http()
            .get('/v1/nothing-here')
            .set(...bearer(team)),
      ],
      [
        404,
        () =>
          sut
            .http()
            .patch('/v1/contractors')
            .set(...bearer(team)),
      ],
      [
        400,
        () =>
          sut
            .http()
            .post('/v1/contractors')
            .set(...bearer(team))
            .set('Content-Type', 'application/json')
            .send('{"companyName": '),
      ],
      [
        415,
        () =>
          sut
            .http()
            .post('/v1/contractors')
            .set(...bearer(team))
            .set('Content-Type', 'text/plain')
            .send('hello'),
      ],
      [
        413,
        () =>
          sut
            .http()
            .post('/v1/contractors')
            .set(...bearer(team))
            .set('Content-Type', 'application/json')
            .send(`{"notes":"${'x'.repeat(1_048_600)}"}`),
      ],
    ];
    const seen: Array<[number, number]> = [];
    for (const [status, send] of refusals) {
      const response = await send();
      expectError(response, status);
      expect(response.headers['x-ratelimit-limit']).toBe('5');
      expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      seen.push([status, remaining(response)]);
    }
    expect(seen).toEqual([
      [404, 4],
      [404, 3],
      [400, 2],
      [415, 1],
      [413, 0],
    ]);
    const unknown = await sut
      .http()
      .get('/v1/nothing-here')
      .set(...bearer(team));
    expect(expectError(unknown, 429)).toBe('Rate limit exceeded');
    expect(Number(unknown.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const route = await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(team));
    expectError(route, 429);
    expect(remaining(route)).toBe(0);
  });

  it('leaves requests without a valid key uncounted: 401 on routes, 404 on unknown routes, no headers', async () => {
    const other = await sut.createTeam('Other');
    const noKey = await sut.http().get('/v1/nothing-here');
    expectError(noKey, 404);
    expect(noKey.headers['x-ratelimit-limit']).toBeUndefined();
    const badKey = await sut
      .http()
      .get('/v1/contractors')
      .set('Authorization', 'Bearer ppk_notarealkeynotarealkeynotarealkey1');
    expectError(badKey, 401);
    expect(badKey.headers['x-ratelimit-limit']).toBeUndefined();
    const fresh = await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(other));
    expect(fresh.status).toBe(200);
    expect(remaining(fresh)).toBe(4);
  });
});
