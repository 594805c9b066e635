/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '@app/common';
import { UsageRecorder } from '../../apps/api/src/api-keys/index.js';
import { browserSuitesRun, launchChromium, screenshot, seriousAxeViolations } from '../support/browser.js';
import { createKeyInPage, signInInPage, signUpInPage, type KeyAccess } from '../support/dashboard-session.js';
import { bearer, createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from '../support/test-app.js';

// The developer dashboard driven as a person drives it: real headless Chromium (Debian's package, through
// playwright-core) on the real service, by the labels a person reads. Two instances share one database, so a
// revocation or a roll made in the dashboard is checked on the other instance too. axe-core runs on every page.

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery staple';

const describeBrowser = browserSuitesRun('dashboard browser tests') ? describe : describe.skip;

describeBrowser('developer dashboard in Chromium', () => {
  const clock = new ManualClock(Date.now());
  let databaseUrl: string;
  let first: TestApp;
  let second: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const config = { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOK_POLL_INTERVAL_MS: 100 };
    first = await createTestApp({ clock, databaseUrl, config });
    second = await createTestApp({ clock, databaseUrl, config });
    await first.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(first.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await first?.close();
    await second?.close();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    // bypassCSP lets the test inject axe-core; the pages themselves run under their own policy.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    return { context, page: await context.newPage() };
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  // Sign-up answers every email alike and does not sign in (issue 21); the first sign-in is welcomed.
  const signUp = (page: Page, email: string, teamName = 'Harbour Lettings') =>
    signUpInPage(page, base, { teamName, email, password: PASSWORD });

  const signIn = (page: Page, email: string, password = PASSWORD) => signInInPage(page, base, email, password);

  async function createKey(page: Page, name: string, access: KeyAccess): Promise<string> {
    const key = await createKeyInPage(page, name, access);
    expect(key).toMatch(/^ppk_[0-9A-Za-z]{40}$/);
    return key;
  }

  const api = (sut: TestApp, key: string) =>
    sut
      .http()
      .get('/v1/work-orders')
      .set(...bearer(key));

  const keyRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

  it('sign up → keys → API calls → revoke → roll → usage → sign out', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/dashboard/sign-up`);
    await expectAccessible(page);
    await screenshot(page, 'sign-up');
    await signUp(page, 'ops@harbour-lettings.co.uk');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');
    expect(await page.getByRole('status').first().textContent()).toContain('Harbour Lettings');
    await expectAccessible(page);

    // A read-write key, shown once, copied with the Copy button.
    const readWrite = await createKey(page, 'Accounts sync', 'Read and write');
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(readWrite);
    expect(await keyRow(page, 'Accounts sync').textContent()).toContain(readWrite.slice(0, 12));
    await expectAccessible(page);
    await screenshot(page, 'new-key');
    await api(first, readWrite).expect(200);
    // Reloading the page shows the key no more and makes no second one: the POST redirected to this page.
    await page.reload();
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await keyRow(page, 'Accounts sync').count()).toBe(1);

    // A read-only key cannot write.
    const readOnly = await createKey(page, 'Monthly reports', 'Read only');
    await api(first, readOnly).expect(200);
    const refused = await first
      .http()
      .post('/v1/landlords')
      .set(...bearer(readOnly))
      .send({ name: 'Harriet Cole' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'This API key is read-only' });

    // Revoke the first key (after confirming): the next call is 401 on both instances.
    await api(second, readWrite).expect(200);
    await keyRow(page, 'Accounts sync').getByRole('link', { name: 'Revoke' }).click();
    await page.getByRole('heading', { name: /Revoke “Accounts sync”/ }).waitFor();
    expect(page.url()).toMatch(/^[^?]+\/dashboard\/keys\/[0-9a-f-]{36}\/revoke$/);
    await expectAccessible(page);
    await screenshot(page, 'revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL(`${base}/dashboard/keys?revoked=1`);
    expect(await keyRow(page, 'Accounts sync').textContent()).toContain('Revoked');
    await api(first, readWrite).expect(401);
    await api(second, readWrite).expect(401);

    // Roll the read-only key with an hour's grace: both work for the hour, then only the new one.
    await api(second, readOnly).expect(200);
    await keyRow(page, 'Monthly reports').getByRole('link', { name: 'Roll' }).click();
    expect(page.url()).toMatch(/^[^?]+\/dashboard\/keys\/[0-9a-f-]{36}\/roll$/);
    await page.getByLabel('1 hour').check();
    await expectAccessible(page);
    await screenshot(page, 'roll');
    await page.getByRole('button', { name: 'Roll key' }).click();
    const rolled = (await page.locator('#new-key').textContent())?.trim() ?? '';
    expect(rolled).toMatch(/^ppk_/);
    expect(rolled).not.toBe(readOnly);
    expect(await page.getByText('The old key keeps working for 1 hour').count()).toBe(1);
    for (const sut of [first, second]) {
      await api(sut, readOnly).expect(200);
      await api(sut, rolled).expect(200);
    }
    clock.advance(HOUR);
    for (const sut of [first, second]) {
      await api(sut, readOnly).expect(401);
      await api(sut, rolled).expect(200);
    }
    await page.goto(`${base}/dashboard/keys`);
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: readOnly.slice(0, 12) })
        .textContent(),
    ).toContain('Expired');
    await screenshot(page, 'keys');

    // Usage shows those requests (the second instance's batch is written first; the page writes its own).
    await second.app.get(UsageRecorder).flush();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Last 100 requests' }).waitFor();
    const recent = page.getByRole('table').last();
    const rows = (method: string, path: string, status: string) =>
      recent.getByRole('row').filter({ hasText: method }).filter({ hasText: path }).filter({ hasText: status }).count();
    expect(await rows('POST', '/v1/landlords', '403')).toBe(1);
    // Both keys' reads on both instances, the rolled key's too (refused keys are no one's usage: they are unknown).
    expect(await rows('GET', '/v1/work-orders', '200')).toBe(10);
    const daily = page.getByRole('article', { name: /^Accounts sync/ }).getByRole('table');
    expect(await daily.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['2', '0', '0', '0', '2']);
    expect(await page.content()).not.toContain(readWrite);
    await expectAccessible(page);

    // Sign out: the pages need signing in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(`${base}/dashboard/keys`);
    expect(page.url()).toBe(`${base}/dashboard/sign-in`);
    await context.close();
  });

  it('says the same for an unknown email and a wrong password, and throttles after 10 failures', async () => {
    const { context, page } = await newPage();
    await signUp(page, 'throttle@harbour-lettings.co.uk', 'Throttle Lettings');
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signIn(page, 'nobody@harbour-lettings.co.uk');
    const unknown = await page.getByRole('alert').textContent();
    await signIn(page, 'throttle@harbour-lettings.co.uk', 'not the password at all');
    expect(await page.getByRole('alert').textContent()).toBe(unknown);
    expect(unknown).toBe('Wrong email or password.');
    await expectAccessible(page);
    await screenshot(page, 'sign-in-error');

    for (let attempt = 2; attempt <= 10; attempt++) await signIn(page, 'throttle@harbour-lettings.co.uk', 'wrong');
    await signIn(page, 'throttle@harbour-lettings.co.uk');
    expect(await page.getByRole('alert').textContent()).toMatch(
      /^Too many failed sign-ins for this email\. Try again in 1[45] minutes\.$/,
    );
    clock.advance(15 * 60_000);
    await signIn(page, 'throttle@harbour-lettings.co.uk');
    await page.waitForURL(`${base}/dashboard/keys`);
    await context.close();
  });

  it('refuses a form posted without its CSRF token (403) and changes nothing', async () => {
    const { context, page } = await newPage();
    await signUp(page, 'csrf@harbour-lettings.co.uk', 'Csrf Lettings');
    const keysBefore = await first.sql('SELECT id FROM api_keys');
    await page.getByLabel('Name').fill('Forged');
    await page.evaluate(() => document.querySelectorAll('input[name="_csrf"]').forEach((input) => input.remove()));
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole('alert').textContent()).toContain('Nothing was changed');
    expect(await first.sql('SELECT id FROM api_keys')).toEqual(keysBefore);
    await expectAccessible(page);
    await context.close();
  });

  it('sends a person whose session expired to sign in again, saying so', async () => {
    const { context, page } = await newPage();
    await signUp(page, 'idle@harbour-lettings.co.uk', 'Idle Lettings');
    clock.advance(12 * HOUR);
    await page.goto(`${base}/dashboard/keys`);
    expect(page.url()).toBe(`${base}/dashboard/sign-in?reason=expired`);
    expect(await page.getByRole('status').textContent()).toBe('Your session expired. Sign in again.');
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    // A bookmarked page opened without a session: signing in brings the person back to it.
    await page.goto(`${base}/dashboard/webhooks`);
    expect(page.url()).toBe(`${base}/dashboard/sign-in?next=%2Fdashboard%2Fwebhooks`);
    await page.getByLabel('Email').fill('idle@harbour-lettings.co.uk');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard/webhooks`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
    await context.close();
  });

  it('can be used with the keyboard alone: sign in, create a read-only key, copy it', async () => {
    const { context, page } = await newPage();
    await signUp(page, 'keyboard@harbour-lettings.co.uk', 'Keyboard Lettings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();

    /** Tabs forward until the element with this id has the focus (a person tabbing through the page). */
    async function tabTo(id: string): Promise<void> {
      for (let presses = 0; presses < 30; presses++) {
        if (await page.evaluate((target) => document.activeElement?.id === target, id)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached #${id}`);
    }

    await tabTo('email');
    await page.keyboard.type('keyboard@harbour-lettings.co.uk');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/keys`);

    // Sent without a name: the alert says so, and the field it is about is marked invalid and described by it
    // (a screen reader names the problem at the field), before its own hint.
    await tabTo('name');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const name = page.getByLabel('Name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await name.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent),
    );
    expect(describedBy).toEqual([await alert.textContent(), 'What uses it, e.g. “Accounts sync”.']);
    expect(await page.getByLabel('Expires').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page);

    await tabTo('name');
    await page.keyboard.type('Keyboard key');
    await page.keyboard.press('Tab'); // the access radio group
    await page.keyboard.press('ArrowRight'); // Read only
    // On through Expires (a date field: Tab visits its day, month and year) to the button.
    for (let presses = 0; presses < 6; presses++) {
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Create key') break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');
    await page.keyboard.press('Enter');
    await page.locator('#new-key').waitFor();
    expect(await keyRow(page, 'Keyboard key').textContent()).toContain('Read only');
    // The focus ring is visible where the keyboard is.
    await page.getByRole('button', { name: 'Copy' }).focus();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByText('Copied to the clipboard').waitFor();
    await context.close();
  });

  it('webhooks: add an endpoint, send a test event, see it in the delivery log, retry, rotate, disable', async () => {
    const receipts: string[] = [];
    let answer = 500;
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        receipts.push(body);
        response.statusCode = answer;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { context, page } = await newPage();
    try {
      await signUp(page, 'hooks@harbour-lettings.co.uk', 'Hooks Lettings');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Add an endpoint' }).waitFor();
      await expectAccessible(page);
      await page.getByLabel('URL').fill(url);
      await page.getByLabel('Description').fill('Contractor dispatch');
      await page.getByLabel('work_order.created').check();
      await page.getByLabel('work_order.updated').check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      expect((await page.locator('#new-secret').textContent())?.trim()).toMatch(/^whsec_/);
      await expectAccessible(page);
      await screenshot(page, 'webhooks');

      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Test event queued').waitFor();
      // The receiver answers 500 until told otherwise: the delivery fails (one attempt, then retries later).
      for (let tries = 0; receipts.length === 0; tries++) {
        if (tries > 200) throw new Error('the test event never arrived');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(JSON.parse(receipts[0])).toMatchObject({ type: 'ping' });
      // The attempt's result is written after the receiver answered: wait for it, or it would overwrite ours below.
      for (let tries = 0; ; tries++) {
        const [row] = await first.sql<{ status: number | null }>(
          `SELECT last_status AS status FROM webhook_deliveries WHERE type = 'ping'`,
        );
        if (row?.status === 500) break;
        if (tries > 200) throw new Error('the failed attempt was never recorded');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      answer = 200;
      await first.sql(`UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL WHERE type = 'ping'`);
      await page.reload();
      const log = page.getByRole('table');
      expect(await log.getByRole('row').filter({ hasText: 'ping' }).textContent()).toContain('failed');
      await log.getByRole('row').filter({ hasText: 'ping' }).getByRole('button', { name: 'Retry' }).click();
      await page.getByText('Delivery queued again.').waitFor();
      for (let tries = 0; receipts.length < 2; tries++) {
        if (tries > 200) throw new Error('the retried delivery never arrived');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.reload();
      expect(await page.getByRole('table').getByRole('row').filter({ hasText: 'ping' }).textContent()).toContain(
        'succeeded',
      );
      await expectAccessible(page);
      await screenshot(page, 'webhook-endpoint');

      await page.getByLabel('Description').fill('Dispatch (night shift)');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await page.getByLabel('Description').inputValue()).toBe('Dispatch (night shift)');

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.locator('#new-secret').textContent())?.trim();
      expect(rotated).toMatch(/^whsec_/);
      // Reloading the page shows the secret no more and rotates nothing again (the POST redirected to it).
      await page.reload();
      expect(await page.locator('#new-secret').count()).toBe(0);
      expect(await first.sql('SELECT secret FROM webhook_endpoints WHERE url = $1', [url])).toEqual([
        { secret: rotated },
      ]);
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('Disabled: nothing is queued').waitFor();
      expect(await page.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('Enabled.').waitFor();
    } finally {
      await context.close();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('runs under its Content-Security-Policy without a single violation (the Copy button works)', async () => {
    // No bypassCSP here: the pages as a browser enforces their policy.
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    try {
      await signUp(page, 'csp@harbour-lettings.co.uk', 'Csp Lettings');
      await createKey(page, 'Under policy', 'Read only');
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied to the clipboard').waitFor();
      await page.goto(`${base}/dashboard/usage`);
      await page.goto(`${base}/dashboard/webhooks`);
      await page.goto(`${base}/docs`);
      await page.getByText('Property Portfolio API').first().waitFor();
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
