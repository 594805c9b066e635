import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { csrfOf } from './support/dashboard-session.js';
import { createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';

// The dashboard's HTTP rules (CONTRACT "Developer dashboard"), over HTTP without a browser: cookies, CSRF,
// sessions, sign-up switch, team isolation. The browser suite (test/browser) drives the same pages as a person.

const PASSWORD = 'a long enough password';

/**
 * Signs up, then in: sign-up answers every email alike (issue 21: it no longer signs in, which would tell a new
 * email from a taken one), and the first sign-in of the new account is the one welcomed.
 */
async function signUp(agent: TestAgent, email: string, teamName = 'Dashboard Lettings'): Promise<string> {
  const form = await agent.get('/dashboard/sign-up').expect(200);
  const response = await agent
    .post('/dashboard/sign-up')
    .type('form')
    .send({ _csrf: csrfOf(form.text), teamName, email, password: PASSWORD })
    .expect(303);
  expect(response.headers.location).toBe('/dashboard/sign-in?reason=signed-up');
  const signIn = await agent
    .post('/dashboard/sign-in')
    .type('form')
    .send({ _csrf: csrfOf(form.text), email, password: PASSWORD })
    .expect(303);
  expect(signIn.headers.location).toBe('/dashboard/keys?welcome=1');
  return csrfOf((await agent.get('/dashboard/keys').expect(200)).text);
}

const sessionCookieOf = (response: request.Response): string | undefined =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('ppa_session='));

describe('dashboard over HTTP', () => {
  let sut: TestApp;
  const agent = () => request.agent(sut.app.getHttpServer());

  beforeAll(async () => {
    // More sign-ups than one client may make in an hour (10): each test signs up its own accounts.
    sut = await createTestApp({
      config: { RATE_LIMIT_PER_MINUTE: 1, RATE_LIMIT_WRITES_PER_MINUTE: 1, DASHBOARD_SIGNUPS_PER_HOUR: 50 },
    });
  });
  afterAll(() => sut.close());

  it('needs no API key and no API rate limit, and is not part of the OpenAPI document', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await request(sut.app.getHttpServer()).get('/dashboard/sign-in').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const document = await request(sut.app.getHttpServer()).get('/v1/openapi.json').expect(200);
    expect(
      Object.keys((document.body as { paths: object }).paths).filter((path) => path.includes('dashboard')),
    ).toEqual([]);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie (not Secure outside production) and a new id at every sign-in', async () => {
    const browser = agent();
    await signUp(browser, 'cookies@dashboard-lettings.co.uk');
    const form = await browser.get('/dashboard/sign-in').expect(200);
    const first = await browser
      .post('/dashboard/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: 'cookies@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(303);
    const second = await browser
      .post('/dashboard/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: 'cookies@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(303);
    const [a, b] = [sessionCookieOf(first), sessionCookieOf(second)];
    expect(a).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
    expect(a).not.toContain('Secure');
    expect(a?.split(';')[0]).not.toBe(b?.split(';')[0]);
    // The session a browser held before signing in again has ended.
    const stale = await request(sut.app.getHttpServer())
      .get('/dashboard/keys')
      .set('Cookie', a?.split(';')[0] ?? '')
      .expect(303);
    expect(stale.headers.location).toBe('/dashboard/sign-in');
  });

  it('answers a path under /dashboard that is no page with a 404 page in its layout (a way back), not JSON', async () => {
    for (const path of ['/dashboard/nope', '/dashboard/usage/x']) {
      const response = await agent().get(path).set('Accept', 'text/html').expect(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.text).toContain('<h1>Page not found</h1>');
      expect(response.text).toContain('href="/dashboard/keys"');
    }
    // Outside the dashboard, an unknown path is still the API's 404 {error}.
    expect((await agent().get('/no-such-path').expect(404)).body).toEqual({ error: 'Route not found' });
  });

  it('refuses a sign-in or sign-up posted without the form token (403) and creates nothing', async () => {
    const before = await sut.sql('SELECT id FROM users');
    const response = await request(sut.app.getHttpServer())
      .post('/dashboard/sign-up')
      .type('form')
      .send({ teamName: 'Forged', email: 'forged@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(403);
    expect(response.text).toContain('Nothing was changed');
    await request(sut.app.getHttpServer())
      .post('/dashboard/sign-in')
      .type('form')
      .send({ email: 'forged@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(403);
    expect(await sut.sql('SELECT id FROM users')).toEqual(before);
  });

  it('answers another team’s key as missing: it can be neither revoked nor rolled', async () => {
    const owner = agent();
    await signUp(owner, 'owner@dashboard-lettings.co.uk', 'Owner Lettings');
    const ownerToken = csrfOf((await owner.get('/dashboard/keys').expect(200)).text);
    await owner
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: ownerToken, name: 'Mine', access: 'read_write' })
      .expect(303);
    const [key] = await sut.sql<{ id: string }>(
      `SELECT k.id FROM api_keys k JOIN users u ON u.team_id = k.team_id WHERE u.email = 'owner@dashboard-lettings.co.uk'`,
    );

    const intruder = agent();
    const token = await signUp(intruder, 'intruder@dashboard-lettings.co.uk', 'Intruder Lettings');
    await intruder.get(`/dashboard/keys/${key.id}/revoke`).expect(404);
    await intruder.post(`/dashboard/keys/${key.id}/revoke`).type('form').send({ _csrf: token }).expect(404);
    await intruder.post(`/dashboard/keys/${key.id}/roll`).type('form').send({ _csrf: token, grace: 'now' }).expect(404);
    // The owner's token does not work in the intruder's session either.
    await intruder
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: ownerToken, name: 'x', access: 'read_only' })
      .expect(403);
    expect(await sut.sql('SELECT revoked_at FROM api_keys WHERE id = $1', [key.id])).toEqual([{ revoked_at: null }]);
  });

  it('shows a new key once, on the page its POST redirects to: a reload or another session makes and shows no other', async () => {
    const browser = agent();
    const token = await signUp(browser, 'prg@dashboard-lettings.co.uk', 'Reload Lettings');
    const keysOf = () =>
      sut.sql(
        `SELECT k.id FROM api_keys k JOIN users u ON u.team_id = k.team_id WHERE u.email = 'prg@dashboard-lettings.co.uk'`,
      );
    const posted = await browser
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: token, name: 'Once', access: 'read_write' })
      .expect(303)
      .expect('Location', '/dashboard/keys');
    const carrier = ([] as string[])
      .concat(posted.headers['set-cookie'] ?? [])
      .find((cookie) => cookie.startsWith('ppa_new_key='));
    // Encrypted: the key is not readable in the cookie itself; HttpOnly, and gone within minutes if never shown.
    expect(carrier).toMatch(
      /^ppa_new_key=[\w-]+; Max-Age=300; Path=\/dashboard; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
    );
    expect(carrier).not.toContain('ppk_');

    // Another signed-in browser given the cookie reads nothing from it (bound to the session that made the key).
    const other = agent();
    await signUp(other, 'prg-other@dashboard-lettings.co.uk', 'Other Reload Lettings');
    const elsewhere = await other
      .get('/dashboard/keys')
      .set('Cookie', carrier?.split(';')[0] ?? '')
      .expect(200);
    expect(elsewhere.text).not.toContain('id="new-key"');

    const shown = await browser.get('/dashboard/keys').expect(200);
    const key = /id="new-key">([^<]+)</.exec(shown.text)?.[1];
    expect(key).toMatch(/^ppk_[0-9A-Za-z]{40}$/);
    expect(([] as string[]).concat(shown.headers['set-cookie'] ?? [])).toContainEqual(
      expect.stringMatching(/^ppa_new_key=; Path=\/dashboard; Expires=Thu, 01 Jan 1970/),
    );
    // The reload: the same page, without the key, and still one key.
    const reloaded = await browser.get('/dashboard/keys').expect(200);
    expect(reloaded.text).not.toContain('id="new-key"');
    expect(reloaded.text).toContain('Once');
    expect(await keysOf()).toHaveLength(1);
    await sut
      .http()
      .get('/v1/units')
      .set('Authorization', `Bearer ${key ?? ''}`)
      .expect(200);
  });

  it('brings a person sent to sign in back to the page asked for, and only to a page of the dashboard', async () => {
    await signUp(agent(), 'deep@dashboard-lettings.co.uk', 'Deep Link Lettings');
    const browser = agent();
    const asked = await browser.get('/dashboard/usage?from=bookmark').expect(303);
    expect(asked.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fusage%3Ffrom%3Dbookmark');
    const form = await browser.get(asked.headers.location).expect(200);
    expect(form.text).toContain('<input type="hidden" name="next" value="/dashboard/usage?from=bookmark" />');
    const signIn = (next: string) =>
      browser
        .post('/dashboard/sign-in')
        .type('form')
        .send({ _csrf: csrfOf(form.text), email: 'deep@dashboard-lettings.co.uk', password: PASSWORD, next })
        .expect(303);
    // A wrong password keeps the way back on the page shown again.
    const wrong = await browser
      .post('/dashboard/sign-in')
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        email: 'deep@dashboard-lettings.co.uk',
        password: 'not it',
        next: '/dashboard/usage',
      })
      .expect(401);
    expect(wrong.text).toContain('<input type="hidden" name="next" value="/dashboard/usage" />');
    expect((await signIn('/dashboard/usage?from=bookmark')).headers.location).toBe('/dashboard/usage?from=bookmark');
    // Never another site, whatever the form says: the keys page, as without a way back.
    for (const next of [
      'https://evil.example/',
      '//evil.example/dashboard',
      '/dashboard/\\evil.example',
      '/v1/units',
    ]) {
      expect((await signIn(next)).headers.location).toBe('/dashboard/keys');
    }
    // A POST's form is gone with its session: no way back to it.
    const posted = await request(sut.app.getHttpServer())
      .post('/dashboard/webhooks')
      .type('form')
      .send({ url: 'https://example.com/hooks' })
      .expect(303);
    expect(posted.headers.location).toBe('/dashboard/sign-in');
  });

  it('names the problem with a key form and creates nothing', async () => {
    const browser = agent();
    const token = await signUp(browser, 'forms@dashboard-lettings.co.uk', 'Forms Lettings');
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: ' ', access: 'read_write' }, 'Name is required.'],
      [{ name: 'x', access: 'admin' }, 'Choose the access: Read and write or Read only.'],
      [{ name: 'x', access: 'read_only', expires: '2001-01-01' }, 'Expires must be a date in the future.'],
      [{ name: 'x', access: 'read_only', expires: '2031-02-30' }, 'Expires must be a date like 2027-01-31.'],
    ];
    for (const [form, message] of cases) {
      const response = await browser
        .post('/dashboard/keys')
        .type('form')
        .send({ _csrf: token, ...form })
        .expect(400);
      expect(response.text).toContain(message);
    }
    const keys = await sut.sql(
      `SELECT k.id FROM api_keys k JOIN users u ON u.team_id = k.team_id WHERE u.email = 'forms@dashboard-lettings.co.uk'`,
    );
    expect(keys).toEqual([]);
  });

  it('refuses a sign-in token it did not sign: a planted ppa_form cookie echoed in the form (403)', async () => {
    // Login CSRF: a page on a sibling origin can set a cookie for this host and post a form with the same value,
    // signing the victim's browser into the attacker's account. The form's token must be the server's HMAC of
    // the cookie's nonce, which only a page this server rendered holds.
    await signUp(agent(), 'attacker@dashboard-lettings.co.uk', 'Attacker Lettings');
    for (const planted of ['a', 'A'.repeat(43)]) {
      const response = await request(sut.app.getHttpServer())
        .post('/dashboard/sign-in')
        .set('Cookie', `ppa_form=${planted}`)
        .type('form')
        .send({ _csrf: planted, email: 'attacker@dashboard-lettings.co.uk', password: PASSWORD })
        .expect(403);
      expect(response.text).toContain('Nothing was changed');
      expect(sessionCookieOf(response)).toBeUndefined();
    }
    const before = await sut.sql('SELECT id FROM users');
    await request(sut.app.getHttpServer())
      .post('/dashboard/sign-up')
      .set('Cookie', 'ppa_form=a')
      .type('form')
      .send({ _csrf: 'a', teamName: 'Planted', email: 'planted@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(403);
    expect(await sut.sql('SELECT id FROM users')).toEqual(before);
    // The page's own token for its own cookie still signs in.
    const browser = agent();
    const form = await browser.get('/dashboard/sign-in').expect(200);
    await browser
      .post('/dashboard/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: 'attacker@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(303);
  });

  it('refuses any dashboard POST sent from another site or origin (403), even with valid tokens', async () => {
    const browser = agent();
    const token = await signUp(browser, 'origin@dashboard-lettings.co.uk', 'Origin Lettings');
    const otherSites: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: 'http://127.0.0.1.evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      // A sibling subdomain is the same site but another origin.
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://sibling.dashboard.example' },
    ];
    for (const headers of otherSites) {
      const response = await browser
        .post('/dashboard/keys')
        .set(headers)
        .type('form')
        .send({ _csrf: token, name: 'Forged', access: 'read_write' })
        .expect(403);
      expect(response.text).toContain('sent from another site');
    }
    const form = await browser.get('/dashboard/sign-in').expect(200);
    await browser
      .post('/dashboard/sign-in')
      .set('Origin', 'https://sibling.dashboard.example')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: 'origin@dashboard-lettings.co.uk', password: PASSWORD })
      .expect(403);
    const keysOf = () =>
      sut.sql(
        `SELECT k.id FROM api_keys k JOIN users u ON u.team_id = k.team_id WHERE u.email = 'origin@dashboard-lettings.co.uk'`,
      );
    expect(await keysOf()).toEqual([]);
    // The dashboard's own origin is welcome, also as Chromium posts from a page with Referrer-Policy: no-referrer.
    await browser
      .post('/dashboard/keys')
      .set({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })
      .type('form')
      .send({ _csrf: token, name: 'Mine too', access: 'read_only' })
      .expect(303);
    await browser
      .post('/dashboard/keys')
      .set({ Host: 'dashboard.example', Origin: 'http://dashboard.example', 'Sec-Fetch-Site': 'same-origin' })
      .type('form')
      .send({ _csrf: token, name: 'Mine', access: 'read_write' })
      .expect(303);
    expect(await keysOf()).toHaveLength(2);
  });

  it('answers a form it cannot read with 400, never 500: no body, a JSON or a text/plain body', async () => {
    const browser = agent();
    const token = await signUp(browser, 'unreadable@dashboard-lettings.co.uk', 'Unreadable Lettings');
    for (const path of ['/dashboard/sign-in', '/dashboard/sign-up', '/dashboard/keys', '/dashboard/sign-out']) {
      const fields = { _csrf: token, email: 'unreadable@dashboard-lettings.co.uk', password: PASSWORD };
      const answers = [
        await browser.post(path),
        await browser.post(path).type('form').send(''),
        await browser.post(path).set('Content-Type', 'application/json').send(JSON.stringify(fields)),
        await browser.post(path).set('Content-Type', 'text/plain').send(`_csrf=${token}`),
      ];
      for (const answer of answers) {
        expect([path, answer.status]).toEqual([path, 400]);
        expect(answer.text).toContain('This form could not be read');
      }
    }
    // Still signed in: the unreadable sign-out changed nothing.
    await browser.get('/dashboard/keys').expect(200);
  });

  it('names a control character in a field on the form’s own page (400) and stores nothing', async () => {
    const browser = agent();
    const token = await signUp(browser, 'nul@dashboard-lettings.co.uk', 'Nul Lettings');
    const cases: Array<[string, Record<string, string>, string]> = [
      [
        '/dashboard/keys',
        { name: 'Re\u0000porting', access: 'read_write' },
        'Name must not contain control characters.',
      ],
      [
        '/dashboard/webhooks',
        { url: 'https://hooks.example/\u0000', description: '' },
        'URL must not contain control characters.',
      ],
      [
        '/dashboard/webhooks',
        { url: 'https://hooks.example/in', description: 'Ops\u0000' },
        'Description must not contain control characters.',
      ],
      ['/dashboard/keys', { name: 'x', access: 'read_write', _csrf: `${token}\u0000` }, 'could not be read'],
    ];
    for (const [path, form, message] of cases) {
      const response = await browser
        .post(path)
        .type('form')
        .send({ _csrf: token, ...form })
        .expect(400);
      expect(response.text).toContain(message);
    }
    const anonymous = agent();
    const page = await anonymous.get('/dashboard/sign-up').expect(200);
    const anonymousCases: Array<[string, Record<string, string>, string]> = [
      [
        '/dashboard/sign-up',
        { teamName: 'Nul\u0000 Lettings', email: 'nul2@dashboard-lettings.co.uk', password: PASSWORD },
        'Team name must not contain control characters.',
      ],
      [
        '/dashboard/sign-up',
        { teamName: 'Nul Lettings', email: 'nul2\u0000@dashboard-lettings.co.uk', password: PASSWORD },
        'Email must not contain control characters.',
      ],
      [
        '/dashboard/sign-in',
        { email: 'nul\u0000@dashboard-lettings.co.uk', password: PASSWORD },
        'Email must not contain control characters.',
      ],
    ];
    for (const [path, form, message] of anonymousCases) {
      const response = await anonymous
        .post(path)
        .type('form')
        .send({ _csrf: csrfOf(page.text), ...form })
        .expect(400);
      expect(response.text).toContain(message);
      // The form is shown again, with what was typed (less the control character).
      expect(response.text).toContain('name="email"');
    }
    expect(await sut.sql(`SELECT id FROM users WHERE email LIKE 'nul2%'`)).toEqual([]);
    expect(
      await sut.sql(
        `SELECT k.id FROM api_keys k JOIN users u ON u.team_id = k.team_id WHERE u.email = 'nul@dashboard-lettings.co.uk'`,
      ),
    ).toEqual([]);
    expect(await sut.sql('SELECT id FROM webhook_endpoints')).toEqual([]);
  });
});

describe('dashboard sign-up switch', () => {
  const SECRET = 'a production secret of at least 32 characters';

  it('is off in production unless DASHBOARD_SIGNUP=true; there the cookies are __Host- cookies (Secure, Path=/)', async () => {
    const production = await createTestApp({
      config: { NODE_ENV: 'production', DASHBOARD_SECRET: SECRET, ATTACHMENT_URL_SECRET: SECRET },
    });
    try {
      const server = production.app.getHttpServer();
      const page = await request(server).get('/dashboard/sign-up').expect(200);
      expect(page.text).toContain('Sign-up is turned off on this service.');
      const form = await request(server).get('/dashboard/sign-in').expect(200);
      // A Secure cookie: a client sends it back over HTTPS only, as a browser would behind the TLS proxy.
      const refused = await request(server)
        .post('/dashboard/sign-up')
        .set('Cookie', (form.headers['set-cookie']?.[0] ?? '').split(';')[0])
        .type('form')
        .send({ _csrf: csrfOf(form.text), teamName: 'Nope', email: 'nope@example.com', password: PASSWORD })
        .expect(403);
      expect(refused.text).toContain('Sign-up is turned off');
      // Said once, and the sign-in page offers no account it would refuse.
      expect(refused.text.split('Sign-up is turned off').length - 1).toBe(1);
      expect(form.text).not.toContain('/dashboard/sign-up"');
      expect(form.text).toContain('Ask the operator of this service for an account.');
      expect(await production.sql('SELECT id FROM users')).toEqual([]);
      expect(form.headers['set-cookie']?.[0]).toMatch(
        /^__Host-ppa_form=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    } finally {
      await production.close();
    }
    const allowed = await createTestApp({
      config: {
        NODE_ENV: 'production',
        DASHBOARD_SIGNUP: true,
        DASHBOARD_SECRET: SECRET,
        ATTACHMENT_URL_SECRET: SECRET,
      },
    });
    try {
      const server = allowed.app.getHttpServer();
      const form = await request(server).get('/dashboard/sign-up').expect(200);
      const formCookie = (form.headers['set-cookie']?.[0] ?? '').split(';')[0];
      await request(server)
        .post('/dashboard/sign-up')
        .set('Cookie', formCookie)
        .type('form')
        .send({ _csrf: csrfOf(form.text), teamName: 'Yes', email: 'yes@example.com', password: PASSWORD })
        .expect(303);
      // Sign-up answers neutrally and starts no session (issue 21): the account signs in.
      const signInForm = await request(server).get('/dashboard/sign-in').expect(200);
      const signedIn = await request(server)
        .post('/dashboard/sign-in')
        .set('Cookie', (signInForm.headers['set-cookie']?.[0] ?? '').split(';')[0])
        .type('form')
        .send({ _csrf: csrfOf(signInForm.text), email: 'yes@example.com', password: PASSWORD })
        .expect(303);
      const session = ([] as string[])
        .concat(signedIn.headers['set-cookie'] ?? [])
        .find((cookie) => cookie.startsWith('__Host-ppa_session='));
      expect(session).toMatch(/^__Host-ppa_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      await request(server)
        .get('/dashboard/keys')
        .set('Cookie', session?.split(';')[0] ?? '')
        .expect(200);
      // The unprefixed name is not read in production: a cookie a sibling origin could set is ignored.
      await request(server)
        .get('/dashboard/keys')
        .set('Cookie', `ppa_session=${session?.split(';')[0].split('=')[1] ?? ''}`)
        .expect(303);
    } finally {
      await allowed.close();
    }
  });

  it('refuses to start in production without DASHBOARD_SECRET (it signs the sign-in form tokens)', async () => {
    const databaseUrl = await createTestDatabase();
    try {
      await expect(createTestApp({ databaseUrl, config: { NODE_ENV: 'production' } })).rejects.toThrow(
        /DASHBOARD_SECRET must be set in production/,
      );
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });
});
