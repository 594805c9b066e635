import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock, THROTTLED_LOOKUPS_PER_SECOND } from '@app/common';
import { ApiKeyCache, generateApiKey, hashApiKey, type CreatedKey } from '../apps/api/src/api-keys/index.js';
import { expectError } from './support/assertions.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Guessing keys (reliability issue, defect 6): each unknown key costs a database lookup, so a client address is
// allowed AUTH_FAILURES_PER_MINUTE failed lookups a minute; then it keeps THROTTLED_LOOKUPS_PER_SECOND lookups a
// second until the minute ends (issue 21, point 10: other clients' failures must not lock out a valid key).

describe('failed authentication, limited per client address', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let sut: TestApp;
  let team: CreatedKey;

  beforeAll(async () => {
    sut = await createTestApp({ clock, config: { AUTH_FAILURES_PER_MINUTE: 3 } });
    team = await sut.createTeam('Guessed team');
  });
  afterAll(() => sut.close());

  const call = (key: string) =>
    sut
      .http()
      .get('/v1/units')
      .set(...bearer(key));

  it('answers 401 for the first failures, then keeps a few lookups a second: a valid new key is accepted, guesses beyond them get 429', async () => {
    // Warm the cache with the team's own key, as a client that works normally would have.
    const cache = sut.app.get(ApiKeyCache);
    for (let i = 0; i < 100 && !cache.holds(hashApiKey(team.apiKey)); i++) {
      await call(team.apiKey).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (let i = 0; i < 3; i++) expectError(await call(generateApiKey()), 401);

    // Throttled: THROTTLED_LOOKUPS_PER_SECOND lookups in this second still happen (and fail)…
    for (let i = 0; i < THROTTLED_LOOKUPS_PER_SECOND; i++) expectError(await call(generateApiKey()), 401);
    // …and the next key that needs one is refused without it, until the next second.
    const refused = await call(generateApiKey());
    expectError(refused, 429);
    expect(refused.body).toEqual({ error: 'Too many failed authentication attempts from this address; retry later' });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');

    // A new key (never cached here) waits for the next second's lookups, then is accepted though the address is
    // still throttled: other clients' failures do not lock a valid key out.
    const fresh = await sut.createTeam('Fresh team');
    expectError(await call(fresh.apiKey), 429);
    clock.advance(1_000);
    await call(fresh.apiKey).expect(200);
    // A key this instance already knows keeps working.
    await call(team.apiKey).expect(200);

    clock.advance(59_000);
    const another = await sut.createTeam('Another fresh team');
    await call(another.apiKey).expect(200);
    expectError(await call(generateApiKey()), 401);
  });

  it('counts only refusals that cost a lookup: a key refused from memory, or a malformed one, costs nothing', async () => {
    clock.advance(60_000); // a fresh failure window
    const mistyped = generateApiKey();
    // One lookup, then the same mistyped key from memory: far more than the limit of 3, none of them counted.
    for (let i = 0; i < 10; i++) expectError(await call(mistyped), 401);
    for (let i = 0; i < 10; i++) expectError(await call('ppk_short'), 401);
    // Counted so far: one. Two more failed lookups reach the limit of 3…
    for (let i = 0; i < 2; i++) expectError(await call(generateApiKey()), 401);
    // …then the throttled address's lookups for this second, then 429.
    for (let i = 0; i < THROTTLED_LOOKUPS_PER_SECOND; i++) expectError(await call(generateApiKey()), 401);
    expectError(await call(generateApiKey()), 429);
    // Refusals from memory still answer 401, not 429: they cost no lookup.
    expectError(await call(mistyped), 401);
  });

  it('is documented on every operation that takes a key: the 429 names this refusal beside the rate limit', async () => {
    const document = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { security?: unknown[]; responses: Record<string, { description: string }> }>
      >;
    };
    const secured = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).filter((operation) => (operation.security ?? []).length > 0),
    );
    expect(secured.length).toBeGreaterThan(10);
    for (const operation of secured) {
      expect(operation.responses['429'].description).toContain(
        '`Too many failed authentication attempts from this address; retry later`',
      );
    }
  });

  it('remembers a refused key: asked again, the database is not (a key made afterwards with that secret stays out)', async () => {
    clock.advance(60_000); // a fresh failure window
    const mistyped = generateApiKey();
    expectError(await call(mistyped), 401);
    // What cannot happen outside a test (the server draws every secret): the refused secret becomes a live key.
    // A second lookup would find it; the answer from memory does not.
    await sut.sql('INSERT INTO api_keys (team_id, id, name, key_hash) VALUES ($1, gen_random_uuid(), $2, $3)', [
      team.teamId,
      'planted',
      hashApiKey(mistyped),
    ]);
    expectError(await call(mistyped), 401);
    // The memory is per key: another key is still looked up.
    await call(team.apiKey).expect(200);
    // Ten minutes on, the refusal is forgotten and the key is looked up again.
    clock.advance(10 * 60_000);
    await call(mistyped).expect(200);
  });
});

describe('failed authentication behind proxies (TRUST_PROXY_HOPS)', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const start = async (hops: number): Promise<TestApp> => {
    const app = await createTestApp({ clock, config: { AUTH_FAILURES_PER_MINUTE: 2, TRUST_PROXY_HOPS: hops } });
    apps.push(app);
    return app;
  };
  const guess = (app: TestApp, forwardedFor: string) =>
    app
      .http()
      .get('/v1/units')
      .set(...bearer(generateApiKey()))
      .set('X-Forwarded-For', forwardedFor);

  it('with one proxy, counts each client the proxy names, and the entries before it do not matter', async () => {
    const app = await start(1);
    expectError(await guess(app, '203.0.113.7'), 401);
    // A client that writes its own X-Forwarded-For: the proxy appends the address it was connected from.
    expectError(await guess(app, '198.51.100.1, 203.0.113.7'), 401);
    // Throttled now: this second's lookups, then 429.
    for (let i = 0; i < THROTTLED_LOOKUPS_PER_SECOND; i++)
      expectError(await guess(app, `198.51.100.${i + 2}, 203.0.113.7`), 401);
    expectError(await guess(app, '198.51.100.9, 203.0.113.7'), 429);
    // Another client behind the same proxy has its own budget.
    expectError(await guess(app, '203.0.113.8'), 401);
  });

  it('with none (the default), ignores X-Forwarded-For: every request counts against the TCP peer', async () => {
    const app = await start(0);
    expectError(await guess(app, '203.0.113.7'), 401);
    expectError(await guess(app, '203.0.113.8'), 401);
    for (let i = 0; i < THROTTLED_LOOKUPS_PER_SECOND; i++) expectError(await guess(app, `203.0.113.${i + 10}`), 401);
    expectError(await guess(app, '203.0.113.9'), 429);
  });
});
