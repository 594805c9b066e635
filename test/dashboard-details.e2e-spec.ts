import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { ManualClock } from '@app/common';
import { EVENT_TYPES } from '../apps/api/src/resources.js';
import { createKeyOverHttp, shownKey, signInOverHttp } from './support/dashboard-session.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// The dashboard's pages as HTML over HTTP (issue 22): the usage page's chart and collapsed idle days, keys told
// apart by prefix, event types as checkboxes, plain links to revoke and roll, the favicon. test/browser drives
// the same pages in Chromium (what a person sees: heights, keyboard, axe).

const DAY = 86_400_000;
const ACCOUNT = { teamName: 'Details Lettings', email: 'ops@details.example', password: 'a long enough password' };
/** Noon UTC on a Wednesday: the days of the week below are fixed, so the page's labels are too. */
const TODAY = Date.UTC(2026, 10, 25, 12);

/** The text of every element matched by `pattern`'s first group, tags removed and spaces collapsed. */
function textsOf(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) =>
    match[1]
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** The `<article>` of one key on the usage page (keys are told apart by prefix). */
function articleOf(html: string, prefix: string): string {
  const article = [...html.matchAll(/<article class="key-usage"[\s\S]*?<\/article>/g)]
    .map((match) => match[0])
    .find((text) => text.includes(`${prefix}…`));
  if (!article) throw new Error(`no usage for ${prefix}`);
  return article;
}

describe('dashboard details over HTTP', () => {
  const clock = new ManualClock(TODAY - 4 * DAY);
  let sut: TestApp;
  let browser: TestAgent;
  let token: string;

  beforeAll(async () => {
    sut = await createTestApp({ clock, config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    browser = request.agent(sut.app.getHttpServer());
    token = await signIn(true);
  });
  afterAll(() => sut.close());

  /** Signs up (once: sign-up starts no session) and in (again after the 12-hour idle expiry); answers the CSRF token. */
  const signIn = (first = false): Promise<string> => signInOverHttp(browser, ACCOUNT, first);

  const createKey = (name: string): Promise<string> => createKeyOverHttp(browser, token, name);

  async function calls(key: string, ok: number, notFound = 0): Promise<void> {
    for (let i = 0; i < ok; i++)
      await sut
        .http()
        .get('/v1/work-orders')
        .set(...bearer(key))
        .expect(200);
    for (let i = 0; i < notFound; i++) {
      await sut
        .http()
        .get(`/v1/work-orders/${randomUUID()}`)
        .set(...bearer(key))
        .expect(404);
    }
  }

  describe('usage page', () => {
    let html: string;
    let synced: string;
    let rolled: string;
    let reports: string;

    beforeAll(async () => {
      // 21 Nov: 3 reads and a 404; 22–23 Nov idle; 24 Nov: 2 reads; 25 Nov: the key is rolled and both are used.
      synced = await createKey('Accounts sync');
      reports = await createKey('Monthly reports');
      await calls(synced, 3, 1);
      clock.advance(3 * DAY);
      await calls(synced, 2);
      clock.advance(DAY);
      token = await signIn();
      const [{ id }] = await sut.sql<{ id: string }>(`SELECT id FROM api_keys WHERE prefix = $1`, [
        synced.slice(0, 12),
      ]);
      await browser.post(`/dashboard/keys/${id}/roll`).type('form').send({ _csrf: token, grace: '1h' }).expect(303);
      rolled = await shownKey(browser);
      await calls(synced, 1);
      await calls(rolled, 4);
      html = (await browser.get('/dashboard/usage').expect(200)).text;
    });

    it('offers no second roll of a rolled key: its row has Revoke only, and the roll page and post are refused', async () => {
      const [{ id }] = await sut.sql<{ id: string }>(`SELECT id FROM api_keys WHERE prefix = $1`, [
        synced.slice(0, 12),
      ]);
      const keysHtml = (await browser.get('/dashboard/keys').expect(200)).text;
      expect(keysHtml).not.toContain(`/dashboard/keys/${id}/roll`);
      expect(keysHtml).toContain(`/dashboard/keys/${id}/revoke`);
      const before = await sut.sql('SELECT id FROM api_keys ORDER BY id');
      expect((await browser.get(`/dashboard/keys/${id}/roll`).expect(409)).text).toContain('rolled already');
      await browser.post(`/dashboard/keys/${id}/roll`).type('form').send({ _csrf: token, grace: '1h' }).expect(409);
      expect(await sut.sql('SELECT id FROM api_keys ORDER BY id')).toEqual(before);
    });

    it('lists only the days with requests, and says how many were idle', () => {
      const article = articleOf(html, synced.slice(0, 12));
      expect(textsOf(article, /<tbody>([\s\S]*?)<\/tbody>/g)[0].split(/(?= \d+ Nov)/)).toEqual([
        '25 Nov 1 0 0 0 1',
        ' 24 Nov 2 0 0 0 2',
        ' 21 Nov 3 1 0 0 4',
      ]);
      expect(textsOf(article, /<caption[^>]*>([\s\S]*?)<\/caption>/g)).toEqual(['Days with requests; 4 days without.']);
      expect(textsOf(article, /<p class="hint">([\s\S]*?)<\/p>/g)).toEqual(['7 requests on 3 of 7 days']);
    });

    it('draws each used key a chart of all 7 days, named and described in words', () => {
      const article = articleOf(html, synced.slice(0, 12));
      const svg = /<svg[^>]*>/.exec(article)?.[0] ?? '';
      expect(svg).toContain('role="img"');
      const titleId = /aria-labelledby="([^"]+)"/.exec(svg)?.[1];
      const descId = /aria-describedby="([^"]+)"/.exec(svg)?.[1];
      expect(textsOf(article, new RegExp(`<title id="${titleId}">([^<]*)</title>`, 'g'))).toEqual([
        `Requests per day, Accounts sync (${synced.slice(0, 12)}…)`,
      ]);
      expect(textsOf(article, new RegExp(`<desc id="${descId}">([^<]*)</desc>`, 'g'))).toEqual([
        '19 Nov to 25 Nov 2026 (UTC): 7 requests on 3 of 7 days, most on 21 Nov (4). 2xx–3xx 6, 4xx 1, 429 0, 5xx 0.',
      ]);
      // One labelled day per column, oldest first; a tooltip for each.
      expect(textsOf(article, /<text\s+class="axis[^"]*"[^>]*text-anchor="middle"\s*>([^<]*)<\/text>/g)).toEqual([
        '19 Nov',
        '20 Nov',
        '21 Nov',
        '22 Nov',
        '23 Nov',
        '24 Nov',
        '25 Nov',
      ]);
      expect(article).toContain('<title>21 Nov: 4 requests (3 2xx–3xx, 1 4xx)</title>');
      expect(article).toContain('<title>22 Nov: 0 requests</title>');
      expect([...article.matchAll(/<rect\s+class="bar (\w+)"/g)].map((match) => match[1])).toEqual([
        'ok',
        'client',
        'ok',
        'ok',
      ]);
    });

    it('puts keys without requests in one line each, without a chart or a table', () => {
      expect(html.match(/<article class="key-usage"/g)).toHaveLength(2);
      const idle = /<div class="idle-keys">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
      expect(textsOf(idle, /<li>([\s\S]*?)<\/li>/g)).toEqual([`Monthly reports ${reports.slice(0, 12)}…`]);
      expect(idle).toContain('No requests in the last 7 days');
    });

    it('shows each recent request with its key prefix, so two keys with one name can be told apart', () => {
      const recent = html.slice(html.indexOf('id="recent-title"'));
      const keys = textsOf(recent, /<tr>\s*<td>[\s\S]*?<\/td>\s*<td>([\s\S]*?)<\/td>/g);
      const rows = (prefix: string) => keys.filter((key) => key === `Accounts sync ${prefix.slice(0, 12)}…`).length;
      expect([rows(synced), rows(rolled), keys.length]).toEqual([7, 4, 11]);
      expect(recent).not.toContain(synced);
      expect(recent).toMatch(
        /<div class="table-wrap scroll" tabindex="0" role="region" aria-label="Last 100 requests \(scrolls\)">/,
      );
    });
  });

  it('links to the revoke and roll pages by their plain URLs (no trailing "?" from an empty GET form)', async () => {
    await createKey('Linked');
    const keys = (await browser.get('/dashboard/keys').expect(200)).text;
    expect(keys).not.toContain('method="get"');
    const hrefs = [...keys.matchAll(/href="(\/dashboard\/keys\/[^"]+)"/g)].map((match) => match[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      expect(href).toMatch(/^\/dashboard\/keys\/[0-9a-f-]{36}\/(revoke|roll)$/);
      await browser.get(href).expect(200);
    }
  });

  it('chooses event types with checkboxes, one per type, keeping the choice on the edit page', async () => {
    const page = (await browser.get('/dashboard/webhooks').expect(200)).text;
    expect(page).not.toContain('<select');
    expect([...page.matchAll(/<input type="checkbox" name="types" value="([^"]+)"/g)].map((m) => m[1])).toEqual(
      EVENT_TYPES,
    );
    expect(page).toMatch(/<fieldset[^>]*>\s*<legend>Event types<\/legend>/);
    // Checkboxes post like the multiple select did: one `types` value for each one ticked.
    await browser
      .post('/dashboard/webhooks')
      .type('form')
      .send(`_csrf=${token}&url=http%3A%2F%2F127.0.0.1%3A9%2Fhooks&types=unit.created&types=work_order.deleted`)
      .expect(303);
    // The new endpoint's secret, once, on the list the POST redirects to.
    const listed = (await browser.get('/dashboard/webhooks').expect(200)).text;
    expect(listed).toContain('Endpoint added: http://127.0.0.1:9/hooks');
    expect(listed).toMatch(/id="new-secret">whsec_/);
    expect((await browser.get('/dashboard/webhooks').expect(200)).text).not.toContain('new-secret');
    const [endpoint] = await sut.sql<{ id: string; types: string[] }>('SELECT id, types FROM webhook_endpoints');
    expect(endpoint.types).toEqual(['unit.created', 'work_order.deleted']);
    const edit = (await browser.get(`/dashboard/webhooks/${endpoint.id}`).expect(200)).text;
    expect([...edit.matchAll(/value="([^"]+)"\s+checked/g)].map((match) => match[1])).toEqual([
      'unit.created',
      'work_order.deleted',
    ]);
  });

  it('serves /favicon.ico (an icon, without an API key or a rate limit) and the SVG the pages link', async () => {
    const server = sut.app.getHttpServer();
    const ico = await request(server).get('/favicon.ico').buffer(true).expect(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    expect(ico.headers['x-ratelimit-limit']).toBeUndefined();
    expect((ico.body as Buffer).subarray(0, 6)).toEqual(Buffer.from([0, 0, 1, 0, 1, 0]));
    const svg = await request(server).get('/dashboard/assets/favicon.svg').buffer(true).expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    for (const path of ['/dashboard/sign-in', '/dashboard/keys']) {
      const page = (await browser.get(path).expect(200)).text;
      expect(page).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32" />');
      expect(page).toContain('<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml" />');
    }
    const document = await request(server).get('/v1/openapi.json').expect(200);
    expect(JSON.stringify(Object.keys((document.body as { paths: object }).paths))).not.toContain('favicon');
  });
});
