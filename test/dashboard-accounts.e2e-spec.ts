import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ManualClock } from '@app/common';
import { PasswordHasher } from '../apps/api/src/dashboard/accounts/index.js';
import { DashboardCleanup } from '../apps/api/src/dashboard/dashboard.cleanup.js';
import { signedOutFormToken } from './support/dashboard-form.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// Dashboard accounts under attack (issue 21): the password-hashing gate (point 3), neutral and throttled
// sign-up (point 5), the password policy (point 8) and the sessions' absolute lifetime (point 11). Client
// addresses come from X-Forwarded-For (TRUST_PROXY_HOPS=1), as behind a load balancer.

const PASSWORD = 'a long enough password';
const FLOODER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.20';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function post(sut: TestApp, path: string, client: string, form: { token: string; cookie: string }) {
  return (fields: Record<string, string>) =>
    request(sut.app.getHttpServer())
      .post(path)
      .set('X-Forwarded-For', client)
      .set('Cookie', form.cookie)
      .type('form')
      .send({ _csrf: form.token, ...fields });
}

const sessionCookieOf = (response: request.Response): string | undefined =>
  ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .find((cookie) => cookie.startsWith('ppa_session='))
    ?.split(';')[0];

describe('dashboard accounts', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let sut: TestApp;
  let form: { token: string; cookie: string };
  const signUp = (client: string, fields: Record<string, string>) =>
    post(sut, '/dashboard/sign-up', client, form)(fields);
  const signIn = (client: string, email: string, password = PASSWORD) =>
    post(sut, '/dashboard/sign-in', client, form)({ email, password });

  beforeAll(async () => {
    sut = await createTestApp({
      clock,
      config: { TRUST_PROXY_HOPS: 1, DASHBOARD_SIGNUPS_PER_HOUR: 3 },
    });
    form = await signedOutFormToken(sut);
  });
  afterAll(() => sut.close());

  describe('sign-up', () => {
    it('answers a taken email (in any letter case) exactly as a new one, and changes nothing for it', async () => {
      const fresh = await signUp('192.0.2.1', {
        teamName: 'Neutral Lettings',
        email: 'neutral@lettings.co.uk',
        password: PASSWORD,
      }).expect(303);
      const taken = await signUp('192.0.2.2', {
        teamName: 'Impostor Lettings',
        email: 'NEUTRAL@Lettings.co.uk',
        password: 'another long password',
      }).expect(303);
      // Before issue 21 the second answer was 409 "An account with this email already exists".
      for (const answer of [fresh, taken]) {
        expect(answer.headers.location).toBe('/dashboard/sign-in?reason=signed-up');
        expect(sessionCookieOf(answer)).toBeUndefined();
      }
      expect(await sut.sql(`SELECT name FROM teams WHERE name IN ('Neutral Lettings', 'Impostor Lettings')`)).toEqual([
        { name: 'Neutral Lettings' },
      ]);
      const page = await request(sut.app.getHttpServer()).get('/dashboard/sign-in?reason=signed-up').expect(200);
      expect(page.text).toContain('If it already had an account, nothing was changed');
      // The account keeps its password; the first sign-in is welcomed, later ones are not.
      await signIn('192.0.2.2', 'neutral@lettings.co.uk', 'another long password').expect(401);
      const first = await signIn('192.0.2.1', 'neutral@lettings.co.uk').expect(303);
      expect(first.headers.location).toBe('/dashboard/keys?welcome=1');
      const again = await signIn('192.0.2.1', 'neutral@lettings.co.uk').expect(303);
      expect(again.headers.location).toBe('/dashboard/keys');
    });

    it('counts sign-ups per client address: past the hourly limit 429 with Retry-After, other addresses unaffected', async () => {
      const client = '192.0.2.50';
      const attempt = (n: number, from = client) =>
        signUp(from, { teamName: `Throttle ${n}`, email: `throttle${n}@lettings.co.uk`, password: PASSWORD });
      for (let n = 1; n <= 3; n++) await attempt(n).expect(303);
      clock.advance(10 * 60_000);
      const refused = await attempt(4).expect(429);
      expect(refused.headers['retry-after']).toBe(String(50 * 60));
      expect(refused.text).toContain('Too many sign-ups from your address. Try again in 50 minutes.');
      expect(await sut.sql(`SELECT 1 FROM users WHERE email = 'throttle4@lettings.co.uk'`)).toEqual([]);
      await attempt(5, '192.0.2.51').expect(303);
      clock.advance(50 * 60_000);
      await attempt(4).expect(303);
      // The cleanup forgets attempts that left the hour.
      clock.advance(HOUR);
      await sut.app.get(DashboardCleanup).run();
      expect(await sut.sql(`SELECT client FROM sign_up_attempts WHERE client = $1`, [client])).toEqual([]);
    });

    it('refuses a weak password naming the rule, and creates nothing', async () => {
      const cases: Array<[string, string, string]> = [
        ['            ', 'spaces@lettings.co.uk', 'Password must not be only spaces'],
        ['aaaaaaaaaaaa', 'repeat@lettings.co.uk', 'Password must not be one character repeated'],
        ['password1234', 'common@lettings.co.uk', 'Password is too common'],
        ['Samantha-Jones-2030', 'samantha@lettings.co.uk', 'Password must not contain the email address’s name'],
      ];
      for (const [password, email, rule] of cases) {
        const answer = await signUp('192.0.2.60', { teamName: 'Weak Lettings', email, password }).expect(400);
        expect(answer.text).toContain(rule);
        // The password field is marked as the one in error, and described by the error before its hint.
        expect(answer.text).toMatch(/<div class="notice error" role="alert" id="form-problem">/);
        expect(answer.text).toMatch(
          /<input\s[^>]*id="password"[^>]*aria-invalid="true"\s+aria-describedby="form-problem password-hint"/,
        );
        expect(answer.text).not.toMatch(/<input\s[^>]*id="email"[^>]*aria-invalid/);
      }
      expect(await sut.sql(`SELECT 1 FROM teams WHERE name = 'Weak Lettings'`)).toEqual([]);
    });
  });

  describe('password-hashing gate', () => {
    beforeAll(async () => {
      await signUp('192.0.2.70', {
        teamName: 'Gate Lettings',
        email: 'gate@lettings.co.uk',
        password: PASSWORD,
      }).expect(303);
    });

    it('answers 429 with Retry-After to an address holding its share of hashes; another address signs in', async () => {
      const gate = sut.app.get(PasswordHasher).gate;
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // The flooding address's one place (PASSWORD_HASH_PER_CLIENT, default 1) is taken by a hash that has not
      // finished; the other of the two running places (PASSWORD_HASH_CONCURRENCY) is free for everyone else.
      const holding = gate.run(FLOODER, () => held);
      try {
        const refused = await signIn(FLOODER, 'gate@lettings.co.uk').expect(429);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.text).toContain('Too many sign-ins are being checked from your address just now');
        await signIn(NEIGHBOUR, 'gate@lettings.co.uk').expect(303);
        // A refused attempt is not a failure: it does not count towards the email's throttle.
        expect(await sut.sql(`SELECT 1 FROM sign_in_failures WHERE email = 'gate@lettings.co.uk'`)).toEqual([]);
      } finally {
        release();
        await holding;
      }
      await signIn(FLOODER, 'gate@lettings.co.uk').expect(303);
    });

    it('refuses most of a flood of sign-ins with unknown emails from one address, while another address signs in', async () => {
      const flood = Array.from({ length: 40 }, (_, n) =>
        signIn(FLOODER, `nobody${n}@flood.example`).then((r) => r.status),
      );
      const legitimate = signIn(NEIGHBOUR, 'gate@lettings.co.uk').then((r) => r.status);
      const statuses = await Promise.all(flood);
      expect(await legitimate).toBe(303);
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      // At most two of the flood's hashes can be under way at once; the 40 requests arrive long before one ends.
      expect(statuses).toContain(429);
    });
  });

  describe('sessions', () => {
    it('end after DASHBOARD_SESSION_MAX_DAYS however often they are used', async () => {
      await signUp('192.0.2.80', {
        teamName: 'Daily Lettings',
        email: 'daily@lettings.co.uk',
        password: PASSWORD,
      }).expect(303);
      const signedInAt = clock.now();
      const cookie = sessionCookieOf(await signIn('192.0.2.80', 'daily@lettings.co.uk').expect(303)) ?? '';
      const keys = () => request(sut.app.getHttpServer()).get('/dashboard/keys').set('Cookie', cookie);
      // Used every 11 hours (never idle for 12) up to the last millisecond of its 30 days: still signed in.
      while (clock.now() + 11 * HOUR < signedInAt + 30 * DAY) {
        clock.advance(11 * HOUR);
        await keys().expect(200);
      }
      clock.set(signedInAt + 30 * DAY - 1);
      await keys().expect(200);
      // Before issue 21 a session used this way lived forever.
      clock.advance(1);
      const expired = await keys().expect(303);
      expect(expired.headers.location).toBe('/dashboard/sign-in?reason=expired');
    });

    it('the cleanup deletes sessions past their lifetime even when used recently', async () => {
      await signUp('192.0.2.81', {
        teamName: 'Busy Lettings',
        email: 'busy@lettings.co.uk',
        password: PASSWORD,
      }).expect(303);
      await signIn('192.0.2.81', 'busy@lettings.co.uk').expect(303);
      const session = `SELECT 1 FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'busy@lettings.co.uk'`;
      await sut.sql(
        `UPDATE dashboard_sessions SET created_at = $1::timestamptz - interval '30 days', last_seen_at = $1
          WHERE user_id = (SELECT id FROM users WHERE email = 'busy@lettings.co.uk')`,
        [new Date(clock.now())],
      );
      await sut.app.get(DashboardCleanup).run();
      expect(await sut.sql(session)).toEqual([]);
    });
  });
});
