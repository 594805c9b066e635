import type { Page } from 'playwright-core';
import type TestAgent from 'supertest/lib/agent.js';

// Getting a dashboard team to its keys page, shared by the dashboard specs: in Chromium (test/browser), by the
// labels a person reads, and over HTTP with a cookie-keeping agent. Sign-up starts no session (issue 21), so each
// signs up and then signs in.

/** The team to sign up, and the password its person signs in with. */
export interface DashboardAccount {
  teamName: string;
  email: string;
  password: string;
}

/** The team the browser specs sign up, each in a database of its own. */
export const HARBOUR_LETTINGS: DashboardAccount = {
  teamName: 'Harbour Lettings',
  email: 'ops@harbour-lettings.co.uk',
  password: 'correct horse battery staple',
};

/** A key's access as the key form labels it; the form starts on "Read and write". */
export type KeyAccess = 'Read and write' | 'Read only';

/** Opens the sign-in page and submits `email` and `password`; where it goes from there is the caller's to check. */
export async function signInInPage(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs the account up in the page, then in; ends on the keys page (its first sign-in is welcomed). */
export async function signUpInPage(page: Page, base: string, account: DashboardAccount): Promise<void> {
  await page.goto(`${base}/dashboard/sign-up`);
  await page.getByLabel('Team name').fill(account.teamName);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${base}/dashboard/sign-in?reason=signed-up`);
  await signInInPage(page, base, account.email, account.password);
  await page.waitForURL(`${base}/dashboard/keys**`);
}

/** Creates a key on the keys page the page is on; answers the key as shown once. */
export async function createKeyInPage(page: Page, name: string, access?: KeyAccess): Promise<string> {
  await page.getByLabel('Name').fill(name);
  if (access) await page.getByLabel(access).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  return (await page.locator('#new-key').textContent())?.trim() ?? '';
}

/** The form token (`_csrf`) of a dashboard page's HTML. */
export function csrfOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no CSRF field on the page');
  return token;
}

/**
 * Signs the account up over HTTP (`first`), then in, each with its form's token; answers the keys page's token. The
 * agent keeps the session cookie.
 */
export async function signInOverHttp(agent: TestAgent, account: DashboardAccount, first = false): Promise<string> {
  for (const step of first ? ['sign-up', 'sign-in'] : ['sign-in']) {
    const form = await agent.get(`/dashboard/${step}`).expect(200);
    await agent
      .post(`/dashboard/${step}`)
      .type('form')
      .send({
        _csrf: csrfOf(form.text),
        ...(step === 'sign-up' ? { teamName: account.teamName } : {}),
        email: account.email,
        password: account.password,
      })
      .expect(303);
  }
  return csrfOf((await agent.get('/dashboard/keys').expect(200)).text);
}

/**
 * Creates a read-and-write key on the dashboard with the keys page's `token`; answers the key as shown once, on the
 * keys page the POST redirects to (the agent keeps the cookie that carries it there).
 */
export async function createKeyOverHttp(agent: TestAgent, token: string, name: string): Promise<string> {
  await agent
    .post('/dashboard/keys')
    .type('form')
    .send({ _csrf: token, name, access: 'read_write' })
    .expect(303)
    .expect('Location', '/dashboard/keys');
  return shownKey(agent);
}

/** The new key the keys page shows (once: it clears the cookie that carried it), or '' when it shows none. */
export async function shownKey(agent: TestAgent): Promise<string> {
  const page = await agent.get('/dashboard/keys').expect(200);
  return /id="new-key">([^<]+)</.exec(page.text)?.[1] ?? '';
}
