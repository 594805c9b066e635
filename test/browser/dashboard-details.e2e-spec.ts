/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '@app/common';
import { browserSuitesRun, launchChromium, screenshot, seriousAxeViolations } from '../support/browser.js';
import {
  createKeyInPage,
  HARBOUR_LETTINGS,
  signInInPage,
  signUpInPage,
  type KeyAccess,
} from '../support/dashboard-session.js';
import { bearer, createTestApp, type TestApp } from '../support/test-app.js';

// What a person sees of issue 22 in real Chromium: a usage page of a week with idle days that stays short, its
// charts (named, described, drawn), keys told apart by prefix, event types ticked with the keyboard, the
// favicon. Takes the usage screenshot the docs show (docs/images/dashboard-usage.png).

jest.setTimeout(180_000);

const DAY = 86_400_000;

const describeBrowser = browserSuitesRun('dashboard details browser tests') ? describe : describe.skip;

describeBrowser('dashboard details in Chromium', () => {
  // 10:00 UTC today, and the week before it: the requests below land on known days, far from midnight.
  const today = Math.floor(Date.now() / DAY) * DAY + 10 * 3_600_000;
  const clock = new ManualClock(today - 6 * DAY);
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every answer of 400 or more the browser got (a missing favicon or stylesheet would show here). */
  const failures: string[] = [];

  beforeAll(async () => {
    sut = await createTestApp({
      clock,
      config: { RATE_LIMIT_PER_MINUTE: 30, WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true },
    });
    await sut.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(sut.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    // bypassCSP lets the test inject axe-core; the pages themselves run under their own policy.
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sut?.close();
  });

  async function expectAccessible(): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  /** Signs in again (the session's 12-hour idle expiry passes during the week below). */
  async function signIn(): Promise<void> {
    await signInInPage(page, base, HARBOUR_LETTINGS.email, HARBOUR_LETTINGS.password);
    await page.waitForURL(`${base}/dashboard/keys**`);
  }

  const createKey = (name: string, access: KeyAccess) => createKeyInPage(page, name, access);

  /** Requests with a key, 40 seconds apart (by the clock) unless `burst`: within one minute's limit of 30. */
  async function traffic(key: string, counts: { ok?: number; notFound?: number; writes?: number }, burst = false) {
    const calls = [
      ...Array<() => unknown>(counts.ok ?? 0).fill(() =>
        sut
          .http()
          .get('/v1/work-orders')
          .set(...bearer(key)),
      ),
      ...Array<() => unknown>(counts.notFound ?? 0).fill(() =>
        sut
          .http()
          .get(`/v1/landlords/${randomUUID()}`)
          .set(...bearer(key)),
      ),
      ...Array<() => unknown>(counts.writes ?? 0).fill(() =>
        sut
          .http()
          .post('/v1/landlords')
          .set(...bearer(key))
          .send({ name: 'Harriet Cole' }),
      ),
    ];
    for (const call of calls) {
      await call();
      if (!burst) clock.advance(40_000);
    }
  }

  const prefix = (key: string) => `${key.slice(0, 12)}…`;

  describe('a week of usage', () => {
    let synced: string;
    let rolled: string;
    let reports: string;
    let portal: string;

    beforeAll(async () => {
      await signUpInPage(page, base, HARBOUR_LETTINGS);
      synced = await createKey('Accounts sync', 'Read and write');
      reports = await createKey('Monthly reports', 'Read only');
      portal = await createKey('Tenant portal', 'Read only');
      const week: Array<() => Promise<void>> = [
        async () => {
          await traffic(synced, { ok: 14, notFound: 1 });
        },
        async () => {
          await traffic(synced, { ok: 21, notFound: 2 });
          await traffic(reports, { ok: 4 });
        },
        async () => {},
        async () => {},
        async () => {
          // A burst past the limit of 30 a minute: 4 refused with 429.
          await traffic(synced, { ok: 27, notFound: 3 }, true);
          await traffic(synced, { ok: 4 }, true);
        },
        async () => {
          await traffic(synced, { ok: 18 });
        },
      ];
      for (const [index, day] of week.entries()) {
        await day();
        clock.set(today - (week.length - 1 - index) * DAY);
      }
      // Today: the sync key is rolled (both work for a day) and the reports key is refused a write.
      await signIn();
      await page
        .getByRole('row')
        .filter({ hasText: prefix(synced) })
        .getByRole('link', { name: 'Roll' })
        .click();
      await page.getByRole('button', { name: 'Roll key' }).click();
      rolled = (await page.locator('#new-key').textContent())?.trim() ?? '';
      await traffic(synced, { ok: 3 });
      await traffic(rolled, { ok: 16, notFound: 1 });
      await traffic(reports, { ok: 2, writes: 1 });
      await page.getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('heading', { name: 'Last 100 requests' }).waitFor();
    });

    it('stays short: idle days take no rows, idle keys one line, and 100 requests scroll in their own box', async () => {
      const article = (key: string) => page.locator('article.key-usage').filter({ hasText: prefix(key) });
      // The reports key was used on 2 of the 7 days: two rows of figures beside its chart.
      expect(await article(reports).locator('tbody tr').count()).toBe(2);
      // A key is its chart's height until it has more busy days than the chart has room for (the old page gave
      // every key a table of seven rows, idle or not: 370 px).
      const height = async (key: string) => (await article(key).boundingBox())?.height ?? Infinity;
      expect(await height(reports)).toBeLessThan(240);
      expect(await height(rolled)).toBeLessThan(240);
      expect(await height(synced)).toBeLessThan(300);
      expect(await page.locator('article.key-usage').count()).toBe(3);
      expect(await page.locator('.idle-keys li').allTextContents()).toEqual([`Tenant portal ${prefix(portal)}`]);

      const region = page.getByRole('region', { name: 'Last 100 requests (scrolls)' });
      expect(await region.getByRole('row').count()).toBe(101);
      expect((await region.boundingBox())?.height).toBeLessThanOrEqual(30 * 16 + 2);
      // The page was 6,100 px tall for fewer keys; now it is bounded whatever the traffic.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2_000);
      // The box scrolls from the keyboard too.
      await region.focus();
      await page.keyboard.press('PageDown');
      // Chromium may scroll smoothly: wait for the first scroll event (the test times out if the box never moves).
      await region.evaluate((element) =>
        element.scrollTop > 0
          ? undefined
          : new Promise<void>((resolve) => element.addEventListener('scroll', () => resolve(), { once: true })),
      );
      expect(await region.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    });

    it('draws a chart per key that Chromium exposes as an image with a name and a text description', async () => {
      const chart = page.getByRole('img', { name: `Requests per day, Accounts sync (${prefix(synced)})` });
      expect(await chart.count()).toBe(1);
      // The bars are drawn: the old sync key has bars of each class it answered (2xx–3xx, 4xx, 429).
      const bars = chart.locator('rect.bar');
      expect(new Set(await bars.evaluateAll((rects) => rects.map((rect) => rect.getAttribute('class'))))).toEqual(
        new Set(['bar ok', 'bar client', 'bar limited']),
      );
      for (const box of await Promise.all((await bars.all()).map((bar) => bar.boundingBox()))) {
        expect(box?.height).toBeGreaterThan(0);
      }
      // The accessibility tree Chromium builds (what a screen reader gets): name and description.
      const cdp = await context.newCDPSession(page);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: Array<{ role?: { value: string }; name?: { value: string }; description?: { value: string } }>;
      };
      const images = nodes.filter(
        (node) => node.role?.value === 'image' && node.name?.value.startsWith('Requests per day'),
      );
      expect(images.map((node) => node.name?.value)).toEqual([
        `Requests per day, Accounts sync (${prefix(synced)})`,
        `Requests per day, Monthly reports (${prefix(reports)})`,
        `Requests per day, Accounts sync (${prefix(rolled)})`,
      ]);
      expect(images[0].description?.value).toMatch(
        /^\d+ \w{3} to \d+ \w{3} \d{4} \(UTC\): 93 requests on 5 of 7 days, most on \d+ \w{3} \(34\)\. 2xx–3xx 83, 4xx 6, 429 4, 5xx 0\.$/,
      );
      await cdp.detach();
    });

    it('names each recent request by key and prefix, so the two "Accounts sync" keys are told apart', async () => {
      const region = page.getByRole('region', { name: 'Last 100 requests (scrolls)' });
      const keys = await region.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(new Set(keys.map((key) => key.replace(/\s+/g, ' ').trim()))).toEqual(
        new Set([
          `Accounts sync ${prefix(synced)}`,
          `Accounts sync ${prefix(rolled)}`,
          `Monthly reports ${prefix(reports)}`,
        ]),
      );
      expect(await page.content()).not.toContain(rolled);
      await expectAccessible();
      // The picture for the docs without the focus ring an earlier check left on the request log.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await screenshot(page, 'usage');
    });
  });

  it('ticks event types with the keyboard alone: Tab to a box, Space to tick it, a visible focus ring', async () => {
    await page.goto(`${base}/dashboard/webhooks`);
    await page.getByLabel('URL').fill('http://127.0.0.1:9/hooks');
    await page.getByLabel('URL').focus();
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value);
    for (const type of ['work_order.created', 'work_order.deleted']) {
      for (let presses = 0; (await focused()) !== type; presses++) {
        if (presses > 30) throw new Error(`Tab never reached ${type}`);
        await page.keyboard.press('Tab');
      }
      expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
      await page.keyboard.press('Space');
    }
    expect(
      await page
        .getByRole('checkbox', { checked: true })
        .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value)),
    ).toEqual(['work_order.created', 'work_order.deleted']);
    await expectAccessible();
    for (
      let presses = 0;
      (await page.evaluate(() => document.activeElement?.textContent)) !== 'Add endpoint';
      presses++
    ) {
      if (presses > 30) throw new Error('Tab never reached Add endpoint');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.locator('#new-secret').waitFor();
    expect(await page.getByRole('row').filter({ hasText: '127.0.0.1:9' }).textContent()).toContain(
      'work_order.created, work_order.deleted',
    );
  });

  it('fits a phone and a tablet: no page wider than the screen, the header wrapped inside its bar', async () => {
    const narrow = await context.newPage();
    try {
      for (const width of [390, 768]) {
        await narrow.setViewportSize({ width, height: 800 });
        for (const path of ['/dashboard/keys', '/dashboard/usage']) {
          await narrow.goto(`${base}${path}`);
          const fit = await narrow.evaluate(() => {
            const header = document.querySelector('header.top')?.getBoundingClientRect();
            const signOut = document.querySelector('header.top .who button')?.getBoundingClientRect();
            return {
              pageWider: document.documentElement.scrollWidth > window.innerWidth,
              // The sign-out button sits on the dark bar, not below it on the light page.
              signOutInBar: Boolean(
                header && signOut && signOut.bottom <= header.bottom && signOut.right <= header.right,
              ),
            };
          });
          expect({ width, path, ...fit }).toEqual({ width, path, pageWider: false, signOutInBar: true });
        }
      }
    } finally {
      await narrow.close();
    }
  });

  it('has a favicon: /favicon.ico is a 32×32 icon Chromium decodes, and the header shows the same house', async () => {
    expect(
      await page.locator('header img.logo').evaluate((image) => (image as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    await page.goto(`${base}/favicon.ico`);
    expect(
      await page.evaluate(() => {
        const image = document.images[0];
        return image?.complete ? [image.naturalWidth, image.naturalHeight] : undefined;
      }),
    ).toEqual([32, 32]);
    // Nothing the browser asked for in this suite went missing (favicons, stylesheet, script, pages).
    expect(failures).toEqual([]);
  });
});
