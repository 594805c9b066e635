import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { createKeyOverHttp, signInOverHttp } from './support/dashboard-session.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// The dashboard's Imports page (issue 25) as HTML over HTTP: the empty state, the team's imports newest first and
// paged, with status in words and progress as a labelled <progress>, one import's page with its failed rows
// (paged), and another team's import answered with the dashboard's 404 page. Imports are posted through the API
// with a key made on the dashboard. test/browser/dashboard-imports.e2e-spec.ts shows the same pages in Chromium.

const ACCOUNT = { teamName: 'Imports Lettings', email: 'ops@imports.example', password: 'a long enough password' };

interface Import {
  id: string;
  status: string;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  failedCount: number;
}

interface ImportError {
  row: number;
  externalRef: string | null;
  error: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** An element's text: tags removed, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity])
    .replace(/\s+/g, ' ')
    .trim();
}

/** The texts of each body row's cells. */
function bodyRows(html: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => textOf(cell[1])),
  );
}

/** `units` CSV: `valid` rows that create a unit, then `invalid` rows without an address (each fails). */
function unitsCsv(tag: string, valid: number, invalid: number): string {
  const rows = [
    ...Array.from({ length: valid }, (_, i) => `${tag}-OK-${i + 1},${i + 1} Mill Lane,Leeds,LS1 1AA,GB`),
    ...Array.from({ length: invalid }, (_, i) => `${tag}-BAD-${i + 1},,Leeds,LS1 1AA,GB`),
  ];
  return `externalRef,addressLine1,city,postcode,country\n${rows.join('\n')}\n`;
}

describe('dashboard imports page over HTTP', () => {
  let sut: TestApp;
  let browser: TestAgent;
  let key: string;
  let other: Team;

  beforeAll(async () => {
    sut = await createTestApp();
    other = await sut.createTeam('Other Lettings');
    browser = request.agent(sut.app.getHttpServer());
    key = await createKeyOverHttp(browser, await signInOverHttp(browser, ACCOUNT, true), 'Migration');
  });
  afterAll(() => sut.close());

  /** Posts a CSV import as `who` (the dashboard's team by default) and waits until it has finished. */
  async function imported(csv: string, extra = '', who: string | Team = key): Promise<Import> {
    const posted = await sut
      .http()
      .post(`/v1/imports?resource=units${extra}`)
      .set(...bearer(who))
      .set('Content-Type', 'text/csv')
      .send(csv)
      .expect(202);
    const { id } = (posted.body as { data: Import }).data;
    let current: Import | undefined;
    await until(async () => {
      current = (
        (
          await sut
            .http()
            .get(`/v1/imports/${id}`)
            .set(...bearer(who))
        ).body as { data: Import }
      ).data;
      return ['succeeded', 'failed', 'cancelled'].includes(current.status);
    }, `import ${id} to finish`);
    return current as Import;
  }

  it('says how to start an import while the team has none, and names Imports in the navigation', async () => {
    const page = await browser.get('/dashboard/imports').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<a href="/dashboard/imports"  aria-current="page">Imports</a>');
    const empty = textOf(/<div class="empty">([\s\S]*?)<\/div>/.exec(page.text)?.[1] ?? '');
    expect(empty).toContain('No imports yet.');
    expect(empty).toContain('POST /v1/imports?resource=units');
    expect(page.text).toContain('href="/docs#/Imports/ImportsController_create"');
    expect(page.text).not.toContain('<table>');
    // The other pages link to it too.
    const keys = await browser.get('/dashboard/webhooks').expect(200);
    expect(keys.text).toContain('<a href="/dashboard/imports" >Imports</a>');
  });

  describe('with imports', () => {
    let withErrors: Import;
    let dryRun: Import;
    let apiErrors: ImportError[];

    beforeAll(async () => {
      // The oldest: 2 units and 51 failing rows (two pages of errors); then a dry run; then 19 more (21 in all).
      withErrors = await imported(unitsCsv('BIG', 2, 51));
      dryRun = await imported(unitsCsv('DRY', 3, 0), '&dryRun=true');
      for (let i = 0; i < 19; i++) await imported(unitsCsv(`SMALL${i}`, 1, 0));
      const errors = await sut
        .http()
        .get(`/v1/imports/${withErrors.id}/errors?pageSize=50`)
        .set(...bearer(key))
        .expect(200);
      apiErrors = (errors.body as { data: ImportError[] }).data;
    });

    it('lists the newest 20 imports with status in words, dry run, labelled progress and counts, and pages on', async () => {
      const first = await browser.get('/dashboard/imports').expect(200);
      const rows = bodyRows(first.text);
      expect(rows).toHaveLength(20);
      // Newest first: the 19 small ones, then the dry run; the oldest is on page 2.
      // Each link names its import (for a screen reader's list of links): resource, id prefix, time posted.
      expect(rows[0]).toEqual([
        expect.stringMatching(/^units import [0-9a-f]{8}, posted \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
        'Succeeded',
        'No',
        '1 of 1 rows 1/1',
        '1',
        '0',
        '0',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      ]);
      expect(rows[19][0]).toContain(`units import ${dryRun.id.slice(0, 8)}, posted`);
      expect(rows[19].slice(1, 7)).toEqual(['Succeeded', 'Yes', '3 of 3 rows 3/3', '3', '0', '0']);
      expect(first.text).toContain(`href="/dashboard/imports/${dryRun.id}"`);
      expect(first.text).not.toContain(withErrors.id);
      expect(first.text).toContain(`<progress id="progress-${dryRun.id}" max="3" value="3" aria-label="3 of 3 rows">`);
      expect(textOf(/<nav class="pager"[^>]*>([\s\S]*?)<\/nav>/.exec(first.text)?.[1] ?? '')).toBe(
        'Page 1 of 2 · 21 imports Next →',
      );
      expect(first.text).toContain('href="/dashboard/imports?page=2"');

      const second = await browser.get('/dashboard/imports?page=2').expect(200);
      expect(bodyRows(second.text).map((row) => row.slice(1, 7))).toEqual([
        ['Succeeded', 'No', '53 of 53 rows 53/53', '2', '0', '51'],
      ]);
      expect(second.text).toContain(`href="/dashboard/imports/${withErrors.id}"`);
      // A page number that is not one shows the first page.
      expect(bodyRows((await browser.get('/dashboard/imports?page=x').expect(200)).text)).toHaveLength(20);
    });

    it('shows an import’s details and its failed rows as the API reports them, 50 to a page', async () => {
      expect(withErrors).toMatchObject({ status: 'succeeded', createdCount: 2, failedCount: 51, totalRows: 53 });
      const page = await browser.get(`/dashboard/imports/${withErrors.id}`).expect(200);
      expect(page.text).toContain('<h1>Import of units</h1>');
      const facts = [...page.text.matchAll(/<dt>([\s\S]*?)<\/dt>\s*<dd>([\s\S]*?)<\/dd>/g)].map(
        ([, term, value]) => `${textOf(term)}: ${textOf(value)}`,
      );
      expect(facts.slice(0, 6)).toEqual([
        'Status: Succeeded',
        'Dry run: No',
        'Progress: 53 of 53 rows 53/53',
        'Created: 2',
        'Updated: 0',
        'Failed rows: 51',
      ]);
      expect(apiErrors).toHaveLength(50);
      expect(bodyRows(page.text)).toEqual(
        apiErrors.map((error) => [String(error.row), error.externalRef ?? '—', error.error]),
      );
      expect(bodyRows(page.text)[0].slice(0, 2)).toEqual(['3', 'BIG-BAD-1']);
      expect(textOf(/<nav class="pager"[^>]*>([\s\S]*?)<\/nav>/.exec(page.text)?.[1] ?? '')).toBe(
        'Page 1 of 2 · 51 failed rows Next →',
      );

      const second = await browser.get(`/dashboard/imports/${withErrors.id}?page=2`).expect(200);
      expect(bodyRows(second.text).map((row) => row.slice(0, 2))).toEqual([['53', 'BIG-BAD-51']]);
      expect(second.text).toContain(`href="/dashboard/imports/${withErrors.id}?page=1"`);
    });

    it('says a dry run wrote nothing, and that no row failed', async () => {
      const page = await browser.get(`/dashboard/imports/${dryRun.id}`).expect(200);
      expect(page.text).toContain('<h1>Import of units (dry run)</h1>');
      expect(textOf(page.text)).toContain('Dry run Yes: nothing was written');
      expect(textOf(page.text)).toContain('Would create 3');
      expect(textOf(/<p class="empty">([\s\S]*?)<\/p>/.exec(page.text)?.[1] ?? '')).toBe('No row has failed.');
    });

    it('answers another team’s import, an unknown id and a malformed one with the dashboard’s 404 page', async () => {
      const foreign = await imported(unitsCsv('OTHER', 1, 1), '', other);
      for (const id of [foreign.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        const page = await browser.get(`/dashboard/imports/${id}`).expect(404);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.text).toContain('There is no such import in your team.');
      }
      const listed = await browser.get('/dashboard/imports?page=1').expect(200);
      expect(listed.text).not.toContain(foreign.id);
      expect(textOf(listed.text)).toContain('21 imports');
    });
  });

  it('sends a visitor without a session to sign in', async () => {
    const page = await request(sut.app.getHttpServer()).get('/dashboard/imports').expect(303);
    expect(page.headers.location).toMatch(/^\/dashboard\/sign-in/);
  });
});
