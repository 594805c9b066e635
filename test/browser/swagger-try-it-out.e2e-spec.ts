/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { ApiKeysService } from '../../apps/api/src/api-keys/index.js';
import { createDemoRecords } from '../../apps/api/src/demo-records.js';
import { browserSuitesRun, launchChromium } from '../support/browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Swagger UI driven as a person drives it with the demo team's key: Authorize, then on every operation that
// creates something, "Try it out" and "Execute" without touching the pre-filled body. The demo team holds the
// documented example records (apps/api/src/demo-records.ts), so a work order's example unitId names a real unit.

// Swagger UI is a heavy page: on a busy 2-core machine one operation's clicks take seconds each.
jest.setTimeout(600_000);

const SANDBOX_RESET = '/v1/sandbox/reset';

const describeBrowser = browserSuitesRun('Swagger UI browser tests') ? describe : describe.skip;

describeBrowser('Swagger UI try-it-out in Chromium', () => {
  let sut: TestApp;
  let base: string;
  let apiKey: string;
  /** The demo team's test key: the sandbox reset takes one (docs/test-mode.md). */
  let testKey: string;
  let browser: Browser;
  let creates: string[];
  let succeeds: Record<string, string | undefined>;

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_PRIVATE: true } });
    const demo = await sut.createTeam('Demo team');
    apiKey = demo.apiKey;
    await createDemoRecords(sut.app, demo);
    testKey = (await sut.app.get(ApiKeysService).createKey(demo.teamId, null, { test: true })).apiKey;
    await sut.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(sut.app.getHttpServer().address() as AddressInfo).port}`;
    const doc = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
    };
    creates = Object.entries(doc.paths).flatMap(([path, operations]) =>
      operations.post?.requestBody && !path.includes('{') ? [path] : [],
    );
    // The status each create documents for success: 201, or 202 for an import (it runs in the background).
    succeeds = Object.fromEntries(
      creates.map((path) => [path, Object.keys(doc.paths[path].post.responses ?? {}).find((code) => /^2/.test(code))]),
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  /** Swagger UI with `key` entered under Authorize, as a person does it. */
  async function signedInPage(key: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(120_000);
    await page.goto(`${base}/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.locator('.auth-container input').first().fill(`Bearer ${key}`);
    await page.getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('.modal-ux button.btn-done').click();
    return page;
  }

  /** Expands the operation, clicks Try it out and Execute as pre-filled, and returns the status Swagger UI shows. */
  async function execute(
    page: Page,
    method: string,
    path: string,
    screenshotAs?: string,
    fill?: (block: Locator) => Promise<void>,
  ): Promise<string> {
    const block = page.locator(`.opblock-${method}`).filter({
      has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    await fill?.(block);
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    if (screenshotAs) {
      mkdirSync('.data/screenshots', { recursive: true });
      await block.locator('.live-responses-table').screenshot({ path: `.data/screenshots/${screenshotAs}.png` });
    }
    return (await status.innerText()).trim();
  }

  it('creates one of every resource with the pre-filled bodies as they stand, and reads a work order by its example id', async () => {
    expect(creates).toEqual(expect.arrayContaining(['/v1/units', '/v1/tenants', '/v1/work-orders']));
    const page = await signedInPage(apiKey);

    const statuses: Record<string, string> = {};
    for (const path of creates.filter((create) => create !== SANDBOX_RESET)) {
      const shot = path === '/v1/work-orders' ? 'swagger-try-it-out-work-order' : undefined;
      statuses[path] = await execute(page, 'post', path, shot);
    }
    // The sandbox reset takes a test key: authorized with the demo team's, its pre-filled body succeeds too.
    const testPage = await signedInPage(testKey);
    statuses[SANDBOX_RESET] = await execute(testPage, 'post', SANDBOX_RESET);
    await testPage.close();
    expect(succeeds).toMatchObject({ '/v1/units': '201', '/v1/imports': '202', [SANDBOX_RESET]: '202' });
    expect(statuses).toEqual(succeeds);

    // Executing a pre-filled POST again creates another record: the body carries no externalRef (a fixed one, or
    // Swagger UI's "string" placeholder, would be the first record's and answer 409).
    const landlords = page
      .locator('.opblock-post')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/v1/landlords"]') });
    const [again] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/v1/landlords',
      ),
      landlords.locator('button.execute').click(),
    ]);
    expect(again.status()).toBe(201);

    // A path id is pre-filled too: the demo team's example work order.
    expect(await execute(page, 'get', '/v1/work-orders/{workOrderId}')).toBe('200');
    // Nested paths too: a note on the example work order, and the demo team's example note.
    expect(await execute(page, 'post', '/v1/work-orders/{workOrderId}/notes')).toBe('201');
    expect(await execute(page, 'get', '/v1/work-orders/{workOrderId}/notes/{noteId}')).toBe('200');
    // An upload: the `file` part is a file picker; a person chooses a photo, the rest stays as pre-filled.
    const photo = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const chooseFile = (block: Locator) =>
      block.locator('input[type="file"]').setInputFiles({ name: 'leak.png', mimeType: 'image/png', buffer: photo });
    const uploaded = await execute(
      page,
      'post',
      '/v1/work-orders/{workOrderId}/attachments',
      'swagger-try-it-out-upload',
      chooseFile,
    );
    expect(uploaded).toBe('201');
    // The demo team's example attachment, its bytes included.
    expect(await execute(page, 'get', '/v1/work-orders/{workOrderId}/attachments/{attachmentId}')).toBe('200');
    expect(await execute(page, 'get', '/v1/work-orders/{workOrderId}/attachments/{attachmentId}/content')).toBe('200');

    await page.close();
  });
});
