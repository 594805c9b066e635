import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { SAMPLE_COUNTS } from '../apps/api/src/sandbox/index.js';
import { createKeyOverHttp, csrfOf, shownKey, signInOverHttp } from './support/dashboard-session.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// The dashboard's "Test mode" switch (issue 26) over HTTP: the switch on every signed-in page, the mode kept with
// the session, the banner, the keys, usage, webhooks and imports pages showing only the sandbox's data in test mode
// and only the live team's otherwise, a test key made on the dashboard, the Sandbox page's "Load sample data" and
// "Reset sandbox" (the live team untouched), and the session's form token required throughout.
// test/browser/dashboard-test-mode.e2e-spec.ts shows the same in Chromium.

const ACCOUNT = {
  teamName: 'Sandbox Lettings',
  email: 'ops@sandbox-lettings.example',
  password: 'a long enough password',
};
const PAGES = ['keys', 'usage', 'webhooks', 'imports'] as const;
const BANNER = 'Test mode: you are viewing your sandbox; test keys (ppk_test_…) see only this data.';

/** A page's text: tags removed, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The Test mode switch's button as the page has it. */
function switchOf(html: string): string {
  const button = /<button type="submit" class="mode-switch"[^>]*>[\s\S]*?<\/button>/.exec(html)?.[0];
  if (!button) throw new Error('no Test mode switch on the page');
  return button;
}

const UNIT_CSV = (tag: string) =>
  `externalRef,addressLine1,city,postcode,country\n${tag}-1,1 Mill Lane,Leeds,LS1 1AA,GB\n`;

describe('dashboard test mode over HTTP', () => {
  let sut: TestApp;
  let browser: TestAgent;
  let liveTeamId: string;
  let liveKey: string;

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    browser = request.agent(sut.app.getHttpServer());
    liveKey = await createKeyOverHttp(browser, await signInOverHttp(browser, ACCOUNT, true), 'Live Sync');
    expect(liveKey).toMatch(/^ppk_(?!test_)/);
    [{ liveTeamId }] = await sut.sql<{ liveTeamId: string }>(
      `SELECT t.id AS "liveTeamId" FROM teams t WHERE t.name = 'Sandbox Lettings'`,
    );
  });
  afterAll(() => sut.close());

  const sandboxes = () =>
    sut.sql<{ id: string }>('SELECT id FROM teams WHERE live_team_id = $1', [liveTeamId]).then((rows) => rows);
  const unitsOf = async (teamId: string) =>
    Number((await sut.sql<{ n: string }>('SELECT count(*) AS n FROM units WHERE team_id = $1', [teamId]))[0].n);

  /** Posts the switch from `from`'s page, answering the response. */
  async function switchTo(mode: 'on' | 'off', back: string = 'keys') {
    const shown = await browser.get(`/dashboard/${back === 'sandbox' ? 'keys' : back}`).expect(200);
    return browser
      .post('/dashboard/test-mode')
      .type('form')
      .send({ _csrf: csrfOf(shown.text), testMode: mode, back })
      .expect(303);
  }

  /** Posts a units CSV import with `key` and waits until it has finished; answers its id. */
  async function imported(key: string, tag: string): Promise<string> {
    const posted = await sut
      .http()
      .post('/v1/imports?resource=units')
      .set(...bearer(key))
      .set('Content-Type', 'text/csv')
      .send(UNIT_CSV(tag))
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

  it('shows the switch, off, on every signed-in page, with no banner', async () => {
    for (const path of PAGES) {
      const shown = await browser.get(`/dashboard/${path}`).expect(200);
      const button = switchOf(shown.text);
      expect(button).toContain('aria-pressed="false"');
      expect(textOf(button)).toBe('Test mode');
      expect(shown.text).toContain('name="testMode" value="on"');
      expect(shown.text).toContain(`name="back" value="${path}"`);
      expect(textOf(shown.text)).not.toContain('Test mode: you are viewing');
      expect(shown.text).not.toContain('(Test mode)');
    }
  });

  it('refuses the switch without the session’s form token, and changes nothing', async () => {
    for (const _csrf of [undefined, 'forged-token']) {
      const refused = await browser
        .post('/dashboard/test-mode')
        .type('form')
        .send({ ...(_csrf ? { _csrf } : {}), testMode: 'on', back: 'keys' })
        .expect(403);
      expect(textOf(refused.text)).toContain('Form refused');
    }
    expect(await sandboxes()).toEqual([]);
    expect(switchOf((await browser.get('/dashboard/keys').expect(200)).text)).toContain('aria-pressed="false"');
  });

  it('turns on, making the sandbox on first use, and marks every page until it is turned off', async () => {
    const switched = await switchTo('on', 'usage');
    expect(switched.headers.location).toBe('/dashboard/usage');
    const [sandbox] = await sandboxes();
    expect(sandbox.id).not.toBe(liveTeamId);
    for (const path of [...PAGES, 'sandbox']) {
      const shown = await browser.get(`/dashboard/${path}`).expect(200);
      expect(switchOf(shown.text)).toContain('aria-pressed="true"');
      expect(shown.text).toContain('name="testMode" value="off"');
      expect(textOf(shown.text)).toContain(BANNER);
      expect(shown.text).toMatch(/<title>[^<]+ \(Test mode\) · Property Portfolio API<\/title>/);
    }
    // Turning it on again keeps the same sandbox.
    await switchTo('on');
    expect(await sandboxes()).toEqual([sandbox]);
    // Off from the Sandbox page lands on the keys (the Sandbox page is test mode's only).
    expect((await switchTo('off', 'sandbox')).headers.location).toBe('/dashboard/keys');
    expect(textOf((await browser.get('/dashboard/keys').expect(200)).text)).not.toContain(BANNER);
    const refused = await browser.get('/dashboard/sandbox').expect(409);
    expect(textOf(refused.text)).toContain('Test mode is off');
  });

  it('lists the sandbox’s keys apart from the live ones; a key made in test mode is a ppk_test_ key', async () => {
    await switchTo('on');
    let shown = await browser.get('/dashboard/keys').expect(200);
    expect(textOf(shown.text)).not.toContain('Live Sync');
    expect(textOf(shown.text)).toContain('No keys yet.');
    await browser
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: csrfOf(shown.text), name: 'Sandbox Sync', access: 'read_write' })
      .expect(303);
    const testKey = await shownKey(browser);
    expect(testKey).toMatch(/^ppk_test_[0-9A-Za-z]{32,}$/);
    const [sandbox] = await sandboxes();
    const [row] = await sut.sql<{ team_id: string }>("SELECT team_id FROM api_keys WHERE name = 'Sandbox Sync'");
    expect(row.team_id).toBe(sandbox.id);
    shown = await browser.get('/dashboard/keys').expect(200);
    expect(textOf(shown.text)).toContain('Sandbox Sync ppk_test_');
    expect(textOf(shown.text)).not.toContain('Live Sync');

    await switchTo('off');
    shown = await browser.get('/dashboard/keys').expect(200);
    expect(textOf(shown.text)).toContain('Live Sync');
    expect(textOf(shown.text)).not.toContain('Sandbox Sync');
  });

  it('shows only the sandbox’s usage, webhooks and imports in test mode, and only the live ones otherwise', async () => {
    await switchTo('on');
    const keysPage = await browser.get('/dashboard/keys').expect(200);
    await browser
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: csrfOf(keysPage.text), name: 'Sandbox Usage', access: 'read_write' })
      .expect(303);
    const testKey = await shownKey(browser);
    await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(testKey))
      .expect(200);
    const sandboxImport = await imported(testKey, 'SBX');
    let hooks = await browser.get('/dashboard/webhooks').expect(200);
    await browser
      .post('/dashboard/webhooks')
      .type('form')
      .send({ _csrf: csrfOf(hooks.text), url: 'http://127.0.0.1:9/sandbox-hook', description: 'Sandbox hook' })
      .expect(303);

    await switchTo('off');
    await sut
      .http()
      .get('/v1/contractors')
      .set(...bearer(liveKey))
      .expect(200);
    const liveImport = await imported(liveKey, 'LIVE');
    hooks = await browser.get('/dashboard/webhooks').expect(200);
    await browser
      .post('/dashboard/webhooks')
      .type('form')
      .send({ _csrf: csrfOf(hooks.text), url: 'http://127.0.0.1:9/live-hook', description: 'Live hook' })
      .expect(303);

    const pagesNow = async () => ({
      usage: textOf((await browser.get('/dashboard/usage').expect(200)).text),
      webhooks: textOf((await browser.get('/dashboard/webhooks').expect(200)).text),
      imports: (await browser.get('/dashboard/imports').expect(200)).text,
    });
    const live = await pagesNow();
    expect(live.usage).toContain('Live Sync');
    expect(live.usage).toContain('/v1/contractors');
    expect(live.usage).not.toContain('Sandbox Usage');
    expect(live.usage).not.toContain('/v1/landlords');
    expect(live.webhooks).toContain('live-hook');
    expect(live.webhooks).not.toContain('sandbox-hook');
    expect(live.imports).toContain(`/dashboard/imports/${liveImport}`);
    expect(live.imports).not.toContain(sandboxImport);
    await browser.get(`/dashboard/imports/${sandboxImport}`).expect(404);

    await switchTo('on');
    const test = await pagesNow();
    expect(test.usage).toContain('Sandbox Usage');
    expect(test.usage).toContain('/v1/landlords');
    expect(test.usage).not.toContain('Live Sync');
    expect(test.usage).not.toContain('/v1/contractors');
    expect(test.webhooks).toContain('sandbox-hook');
    expect(test.webhooks).not.toContain('live-hook');
    expect(test.imports).toContain(`/dashboard/imports/${sandboxImport}`);
    expect(test.imports).not.toContain(liveImport);
    await browser.get(`/dashboard/imports/${liveImport}`).expect(404);
    await browser.get(`/dashboard/imports/${sandboxImport}`).expect(200);
    await switchTo('off');
  });

  it('refuses a form shown in the other mode (another tab), so nothing lands in the wrong team', async () => {
    const livePage = await browser.get('/dashboard/keys').expect(200);
    await switchTo('on');
    const refused = await browser
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: csrfOf(livePage.text), name: 'Meant for live', access: 'read_write' })
      .expect(403);
    expect(textOf(refused.text)).toContain('Form refused');
    expect(await sut.sql("SELECT id FROM api_keys WHERE name = 'Meant for live'")).toEqual([]);
    await switchTo('off');
  });

  it('loads sample data and resets the sandbox from the Sandbox page, never touching the live team', async () => {
    await sut
      .http()
      .post('/v1/units')
      .set(...bearer(liveKey))
      .send({ addressLine1: '2 Live Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'GB' })
      .expect(201);
    const liveUnits = await unitsOf(liveTeamId);
    expect(liveUnits).toBeGreaterThan(0);
    const liveKeys = await sut.sql('SELECT id, revoked_at FROM api_keys WHERE team_id = $1 ORDER BY id', [liveTeamId]);

    // Live mode: no Sandbox page, no reset, even with the live page's own token.
    const livePage = await browser.get('/dashboard/keys').expect(200);
    expect(livePage.text).not.toContain('/dashboard/sandbox');
    await browser
      .post('/dashboard/sandbox/reset')
      .type('form')
      .send({ _csrf: csrfOf(livePage.text), sampleData: 'yes' })
      .expect(409);

    await switchTo('on');
    const [sandbox] = await sandboxes();
    const page = await browser.get('/dashboard/sandbox').expect(200);
    expect(textOf(page.text)).toContain('Reset or load sample data');
    expect(page.text).toContain(sandbox.id);
    for (const _csrf of [undefined, 'forged-token']) {
      await browser
        .post('/dashboard/sandbox/reset')
        .type('form')
        .send({ ...(_csrf ? { _csrf } : {}), sampleData: 'yes' })
        .expect(403);
    }
    expect(await unitsOf(sandbox.id)).toBe(1); // the sandbox import's unit

    // The page's buttons ask first, on a page of their own; that page's POST does it.
    expect(page.text).toContain('<form method="get" action="/dashboard/sandbox/reset">');
    const confirm = await browser.get('/dashboard/sandbox/reset?sampleData=yes').expect(200);
    expect(textOf(confirm.text)).toContain('Load sample data into the sandbox?');
    expect(textOf(confirm.text)).toContain('This cannot be undone.');
    expect(confirm.text).toContain('<a class="button secondary" href="/dashboard/sandbox">Cancel</a>');
    expect(await unitsOf(sandbox.id)).toBe(1);
    await browser.get('/dashboard/sandbox/reset?sampleData=maybe').expect(404);
    await browser
      .post('/dashboard/sandbox/reset')
      .type('form')
      .send({ _csrf: csrfOf(confirm.text), sampleData: 'yes' })
      .expect(303)
      .expect('Location', '/dashboard/sandbox');
    const loaded = await browser.get('/dashboard/sandbox').expect(200);
    const sandboxUnits = await unitsOf(sandbox.id);
    expect(sandboxUnits).toBe(SAMPLE_COUNTS.units);
    expect(textOf(loaded.text)).toContain(`Sample data loaded: `);
    expect(textOf(loaded.text)).toContain(`${sandboxUnits} units`);
    expect(loaded.text).toContain('role="status"');
    const [counts] = await sut.sql<{ tenants: string; workOrders: string; imports: string }>(
      `SELECT (SELECT count(*) FROM tenants WHERE team_id = $1) AS tenants,
              (SELECT count(*) FROM work_orders WHERE team_id = $1) AS "workOrders",
              (SELECT count(*) FROM imports WHERE team_id = $1) AS imports`,
      [sandbox.id],
    );
    expect(counts).toEqual({
      tenants: String(SAMPLE_COUNTS.tenants),
      workOrders: String(SAMPLE_COUNTS.workOrders),
      imports: '0',
    });
    expect(await unitsOf(liveTeamId)).toBe(liveUnits);
    // The result is said once: reloading the page resets nothing again and says nothing more.
    const reloaded = await browser.get('/dashboard/sandbox').expect(200);
    expect(textOf(reloaded.text)).not.toContain('Sample data loaded');

    expect(textOf((await browser.get('/dashboard/sandbox/reset?sampleData=no').expect(200)).text)).toContain(
      'Reset the sandbox?',
    );
    await browser
      .post('/dashboard/sandbox/reset')
      .type('form')
      .send({ _csrf: csrfOf(loaded.text), sampleData: 'no' })
      .expect(303);
    const reset = await browser.get('/dashboard/sandbox').expect(200);
    expect(textOf(reset.text)).toContain('The sandbox is reset: it holds no records and no imports now.');
    expect(await unitsOf(sandbox.id)).toBe(0);
    // The live team keeps its records, imports, keys and webhooks; the sandbox keeps its keys and endpoints.
    expect(await unitsOf(liveTeamId)).toBe(liveUnits);
    expect(await sut.sql('SELECT id, revoked_at FROM api_keys WHERE team_id = $1 ORDER BY id', [liveTeamId])).toEqual(
      liveKeys,
    );
    const [kept] = await sut.sql<{ liveImports: string; liveHooks: string; sandboxKeys: string; sandboxHooks: string }>(
      `SELECT (SELECT count(*) FROM imports WHERE team_id = $1) AS "liveImports",
              (SELECT count(*) FROM webhook_endpoints WHERE team_id = $1) AS "liveHooks",
              (SELECT count(*) FROM api_keys WHERE team_id = $2) AS "sandboxKeys",
              (SELECT count(*) FROM webhook_endpoints WHERE team_id = $2) AS "sandboxHooks"`,
      [liveTeamId, sandbox.id],
    );
    expect(kept).toEqual({ liveImports: '1', liveHooks: '1', sandboxKeys: '2', sandboxHooks: '1' });
    await switchTo('off');
  });
});
