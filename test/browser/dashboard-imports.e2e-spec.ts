/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ImportRunner } from '../../apps/api/src/imports/index.js';
import { axeViolations, browserSuitesRun, launchChromium } from '../support/browser.js';
import { createKeyInPage, HARBOUR_LETTINGS, signUpInPage } from '../support/dashboard-session.js';
import { bearer, createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

// What a person sees of the Imports page (issue 25) in real Chromium: the empty state, Imports in the navigation,
// an import's progress bar by its accessible name, its failed rows, and axe-core finding nothing at all (not only
// serious problems). Screenshots go to .data/screenshots/ (not committed).

jest.setTimeout(180_000);

const SCREENSHOTS = fileURLToPath(new URL('../../.data/screenshots/', import.meta.url));

const describeBrowser = browserSuitesRun('dashboard imports browser tests') ? describe : describe.skip;

describeBrowser('dashboard imports in Chromium', () => {
  let sut: TestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key: string;
  /** Every answer of 400 or more the browser got. */
  const failures: string[] = [];

  beforeAll(async () => {
    sut = await createTestApp();
    await sut.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(sut.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    // bypassCSP lets the test inject axe-core; the pages themselves run under their own policy.
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });

    await signUpInPage(page, base, HARBOUR_LETTINGS);
    key = await createKeyInPage(page, 'Migration', 'Read and write');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sut?.close();
  });

  async function expectNoAxeViolations(): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
  }

  async function shoot(name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
  }

  /** Posts a units CSV through the API and waits until the import has finished; answers its id. */
  async function imported(csv: string, query = ''): Promise<string> {
    const posted = await sut
      .http()
      .post(`/v1/imports?resource=units${query}`)
      .set(...bearer(key))
      .set('Content-Type', 'text/csv')
      .send(csv)
      .expect(202);
    const { id } = (posted.body as { data: { id: string } }).data;
    await until(async () => {
      const current = await sut
        .http()
        .get(`/v1/imports/${id}`)
        .set(...bearer(key));
      return (current.body as { data: { finishedAt: string | null } }).data.finishedAt !== null;
    }, `import ${id} to finish`);
    return id;
  }

  it('opens Imports from the navigation and says how to start one', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Imports' }).click();
    await page.waitForURL(`${base}/dashboard/imports`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Imports');
    expect(await page.locator('.empty').innerText()).toContain('No imports yet.');
    expect(await page.getByRole('link', { name: 'POST /v1/imports' }).first().getAttribute('href')).toBe(
      '/docs#/Imports/ImportsController_create',
    );
    await expectNoAxeViolations();
    await shoot('imports-empty');
  });

  it('shows each import’s progress and counts, and an import’s failed rows', async () => {
    const csv = [
      'externalRef,addressLine1,city,postcode,country',
      'HB-101,Flat 1 Harbour View,Whitby,YO21 3PU,GB',
      'HB-102,Flat 2 Harbour View,Whitby,YO21 3PU,GB',
      'HB-103,,Whitby,YO21 3PU,GB',
      'HB-104,Flat 4 Harbour View,Whitby,YO21 3PU,GB',
      'HB-105,Flat 5 <Harbour> View,Whitby,,GB',
    ].join('\n');
    const withErrors = await imported(`${csv}\n`);
    await imported(`${csv.replace(/HB-/g, 'DR-')}\n`, '&dryRun=true');

    await page.reload();
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    // Newest first: the dry run, then the import with errors; status in words, progress by its name.
    expect(await rows.nth(0).getByRole('cell').nth(1).innerText()).toBe('Yes');
    const progress = rows.nth(1).getByRole('progressbar', { name: '5 of 5 rows' });
    expect(await progress.getAttribute('value')).toBe('5');
    expect(await progress.getAttribute('max')).toBe('5');
    expect((await rows.nth(1).locator('td').allInnerTexts()).slice(0, 6)).toEqual([
      'Succeeded',
      'No',
      '5/5',
      '3',
      '0',
      '2',
    ]);
    await expectNoAxeViolations();
    await shoot('imports');

    // Each link names its import, not only its resource (both rows are "units").
    await page.getByRole('link', { name: `units import ${withErrors.slice(0, 8)}, posted` }).click();
    await page.waitForURL(`${base}/dashboard/imports/${withErrors}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Import of units');
    expect(await page.getByRole('progressbar', { name: '5 of 5 rows' }).count()).toBe(1);
    const errors = page.getByRole('region', { name: 'Failed rows' }).locator('tbody tr');
    expect(await errors.count()).toBe(2);
    const cells = async (index: number) => (await errors.nth(index).getByRole('cell').allInnerTexts()).slice(0, 2);
    expect(await cells(0)).toEqual(['3', 'HB-103']);
    expect(await cells(1)).toEqual(['5', 'HB-105']);
    expect(await errors.nth(0).getByRole('cell').nth(2).innerText()).toMatch(/addressLine1/);
    await expectNoAxeViolations();
    await shoot('import');

    expect(failures).toEqual([]);
  });

  it('shows a running import part of the way, and a queued one at 0', async () => {
    // This instance's job is stopped; the test runs one batch of 100 rows itself (as test/medium/import-runner does).
    const runner = sut.app.get(ImportRunner);
    await runner.beforeApplicationShutdown();
    const rows = (tag: string, count: number) =>
      `externalRef,addressLine1,city,postcode,country\n${Array.from(
        { length: count },
        (_, i) => `${tag}-${i + 1},${i + 1} Quay Street,Whitby,YO22 4DE,GB`,
      ).join('\n')}\n`;
    const post = (csv: string) =>
      sut
        .http()
        .post('/v1/imports?resource=units')
        .set(...bearer(key))
        .set('Content-Type', 'text/csv')
        .send(csv)
        .expect(202);
    await post(rows('QS', 250));
    const claimed = await runner.claim();
    expect(claimed).toBeDefined();
    if (!claimed) return;
    expect(await runner.runBatch(claimed, 100)).toBe('more');
    await post(rows('NEW', 40));

    await page.goto(`${base}/dashboard/imports`);
    const listed = page.locator('tbody tr');
    expect(await listed.count()).toBe(4);
    expect((await listed.nth(0).locator('td').allInnerTexts()).slice(0, 3)).toEqual(['Queued', 'No', '0/40']);
    expect(await listed.nth(0).getByRole('progressbar', { name: '0 of 40 rows' }).getAttribute('value')).toBe('0');
    expect((await listed.nth(1).locator('td').allInnerTexts()).slice(0, 6)).toEqual([
      'Running',
      'No',
      '100/250',
      '100',
      '0',
      '0',
    ]);
    const running = listed.nth(1).getByRole('progressbar', { name: '100 of 250 rows' });
    expect(await running.getAttribute('value')).toBe('100');
    expect(await running.getAttribute('max')).toBe('250');
    // Not finished: a dash, not a time.
    expect((await listed.nth(1).locator('td').allInnerTexts())[7]).toBe('—');
    await expectNoAxeViolations();
    await shoot('imports-in-progress');
    expect(failures).toEqual([]);
  });
});
