import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { CONTRACTOR_KEYS, createContractor, listContractors, type ContractorBody } from './factories/contractors.js';
import { expectError, expectFieldError } from './support/assertions.js';
import { text } from './support/inputs.js';

type Query = Record<string, string | number>;

describe('GET /v1/contractors', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const list = async (team: Team, query: Query = {}) => {
    const response = await listContractors(sut, team, query);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data', 'pagination']);
    return response.body as { data: ContractorBody[]; pagination: Record<string, number> };
  };

  /** Company names found, in list order (all fit on one page). */
  const names = async (team: Team, query: Query = {}): Promise<string[]> =>
    (await list(team, { pageSize: 50, ...query })).data.map((c) => c.companyName);

  describe('search', () => {
    let team: Team;
    beforeAll(async () => {
      team = await sut.createTeam();
      await createContractor(sut, team, {
        companyName: 'Northern Heating Ltd',
        contactName: 'Zed Adams',
        email: 'zed@northern.example',
        phoneNumber: '0113 496 0001',
        fullAddress: 'Hidden Lane, Leeds',
        notes: 'secret-note',
      });
      await createContractor(sut, team, { companyName: '100% Roofing', contactName: 'Ann_Lee' });
      await createContractor(sut, team, { companyName: 'Back\\slash Builders', contactName: 'Bob' });
    });

    it.each([
      ['companyName', 'heating lt'],
      ['contactName', 'zed ad'],
      ['email', '@northern.EXAMPLE'],
      ['phoneNumber', '496 0001'],
    ])('matches a substring of %s, ignoring case', async (_field, search) => {
      expect(await names(team, { search })).toEqual(['Northern Heating Ltd']);
    });

    it('does not search fullAddress or notes, nor across two fields', async () => {
      for (const search of ['Hidden Lane', 'secret-note', 'Ltd Zed', 'LtdZed']) {
        expect({ search, found: await names(team, { search }) }).toEqual({ search, found: [] });
      }
    });

    it('takes %, _ and \\ literally', async () => {
      expect(await names(team, { search: '%' })).toEqual(['100% Roofing']);
      expect(await names(team, { search: '_' })).toEqual(['100% Roofing']);
      expect(await names(team, { search: 'ann_lee' })).toEqual(['100% Roofing']);
      expect(await names(team, { search: 'Ann%Lee' })).toEqual([]);
      expect(await names(team, { search: 'N_rthern' })).toEqual([]);
      expect(await names(team, { search: '\\' })).toEqual(['Back\\slash Builders']);
    });

    it('is trimmed, and blank means no filter', async () => {
      expect(await names(team, { search: '   northern  ' })).toEqual(['Northern Heating Ltd']);
      for (const search of ['', '   ']) {
        const page = await list(team, { search });
        expect(page.pagination.total).toBe(3);
      }
    });

    it('accepts 200 characters and refuses 201', async () => {
      expect((await list(team, { search: text(200) })).pagination.total).toBe(0);
      expect(expectFieldError(await listContractors(sut, team, { search: text(201) }), 'search')).toBe(
        'search must be shorter than or equal to 200 characters',
      );
    });
  });

  describe('filters', () => {
    let team: Team;
    beforeAll(async () => {
      team = await sut.createTeam();
      const rows: [name: string, status: string, trades: string[], coveragePostcodes: string[]][] = [
        ['Leeds Plumbing', 'active', ['Plumbing', 'Gas'], ['LS1']],
        ['Leeds Plumbing Two', 'inactive', ['plumbing'], ['LS1']],
        ['Leeds Roofing', 'active', ['roofing'], ['LS1']],
        ['Manchester Plumbing', 'on_holiday', ['PLUMBING'], ['M1']],
        ['Other Name', 'active', ['plumbing and heating'], ['LS1 4']],
      ];
      for (const [companyName, status, trades, coveragePostcodes] of rows) {
        await createContractor(sut, team, { companyName, status, trades, coveragePostcodes });
      }
    });

    it('status takes one value or a comma-separated list', async () => {
      expect((await names(team, { status: 'active' })).sort()).toEqual([
        'Leeds Plumbing',
        'Leeds Roofing',
        'Other Name',
      ]);
      expect(await names(team, { status: 'inactive' })).toEqual(['Leeds Plumbing Two']);
      expect((await names(team, { status: 'inactive,on_holiday' })).sort()).toEqual([
        'Leeds Plumbing Two',
        'Manchester Plumbing',
      ]);
      expect((await list(team, { status: 'active, inactive,on_holiday' })).pagination.total).toBe(5);
    });

    it.each(['retired', 'active,retired', 'Active'])('status=%s is a 400 naming the filter', async (status) => {
      expect(expectFieldError(await listContractors(sut, team, { status }), 'status')).toContain(
        'active, inactive, on_holiday',
      );
    });

    it('trade matches one whole trade, ignoring case and surrounding spaces', async () => {
      const plumbers = ['Leeds Plumbing', 'Leeds Plumbing Two', 'Manchester Plumbing'];
      expect((await names(team, { trade: 'plumbing' })).sort()).toEqual(plumbers);
      expect((await names(team, { trade: ' PLUMBING ' })).sort()).toEqual(plumbers);
      expect(await names(team, { trade: 'gas' })).toEqual(['Leeds Plumbing']);
      expect(await names(team, { trade: 'plumb' })).toEqual([]);
      expect(await names(team, { trade: 'heating' })).toEqual([]);
    });

    it('postcode matches contractors whose coverage is a prefix of it, ignoring case and spaces', async () => {
      const leeds = ['Leeds Plumbing', 'Leeds Plumbing Two', 'Leeds Roofing'];
      expect((await names(team, { postcode: 'ls1 1aa' })).sort()).toEqual(leeds);
      expect((await names(team, { postcode: 'LS14AP' })).sort()).toEqual([...leeds, 'Other Name']);
      expect(await names(team, { postcode: 'm1 1ad' })).toEqual(['Manchester Plumbing']);
      expect(await names(team, { postcode: 'LS' })).toEqual([]);
    });

    it('combine with AND', async () => {
      const query = { status: 'active', trade: 'plumbing', postcode: 'LS1 4AP', search: 'leeds' };
      expect(await names(team, query)).toEqual(['Leeds Plumbing']);
      expect((await list(team, query)).pagination).toEqual({ total: 1, page: 1, pageSize: 20, pageCount: 1 });
      expect(await names(team, { ...query, status: 'inactive' })).toEqual(['Leeds Plumbing Two']);
      expect(await names(team, { ...query, search: 'roof' })).toEqual([]);
      expect(await names(team, { ...query, trade: 'roofing' })).toEqual(['Leeds Roofing']);
    });
  });

  it('postcode coverage follows the contract examples', async () => {
    const team = await sut.createTeam();
    await createContractor(sut, team, { companyName: 'A', coveragePostcodes: ['SW1A'] });
    await createContractor(sut, team, { companyName: 'B', coveragePostcodes: ['SW1A 1'] });
    await createContractor(sut, team, { companyName: 'C', coveragePostcodes: ['SW1'] });
    await createContractor(sut, team, { companyName: 'D', coveragePostcodes: ['SE1', 'N1'] });
    expect((await names(team, { postcode: 'sw1a 1aa' })).sort()).toEqual(['A', 'B', 'C']);
    expect((await names(team, { postcode: 'SW1A1AA' })).sort()).toEqual(['A', 'B', 'C']);
    expect((await names(team, { postcode: 'SW1A' })).sort()).toEqual(['A', 'C']);
    expect(await names(team, { postcode: 'SE1 7PB' })).toEqual(['D']);
    expect(await names(team, { postcode: 'N1 9GU' })).toEqual(['D']);
  });

  describe('pagination and order', () => {
    let team: Team;
    let created: ContractorBody[];
    beforeAll(async () => {
      team = await sut.createTeam();
      created = [];
      for (let i = 0; i < 7; i += 1) created.push(await createContractor(sut, team, { companyName: `Paged ${i}` }));
    });

    it('defaults to page 1 of 20, newest first, each item shaped like GET one', async () => {
      const page = await list(team);
      expect(page.pagination).toEqual({ total: 7, page: 1, pageSize: 20, pageCount: 1 });
      expect(page.data.map((c) => c.id)).toEqual([...created].reverse().map((c) => c.id));
      expect(Object.keys(page.data[0])).toEqual(CONTRACTOR_KEYS);
      expect(page.data[0]).toEqual(created[6]);
    });

    it('splits into ceil(total / pageSize) pages; a page past the end is empty with true totals', async () => {
      const sizes: number[] = [];
      for (const pageNumber of [1, 2, 3]) {
        const page = await list(team, { page: pageNumber, pageSize: 3 });
        expect(page.pagination).toEqual({ total: 7, page: pageNumber, pageSize: 3, pageCount: 3 });
        sizes.push(page.data.length);
      }
      expect(sizes).toEqual([3, 3, 1]);
      expect(await list(team, { page: 4, pageSize: 3 })).toEqual({
        data: [],
        pagination: { total: 7, page: 4, pageSize: 3, pageCount: 3 },
      });
      expect((await list(team, { pageSize: 7 })).pagination.pageCount).toBe(1);
      expect((await list(team, { pageSize: 1 })).pagination.pageCount).toBe(7);
      expect((await list(team, { pageSize: 50 })).data).toHaveLength(7);
    });

    it('reports 0 pages for an empty result', async () => {
      const empty = await sut.createTeam();
      expect(await list(empty)).toEqual({ data: [], pagination: { total: 0, page: 1, pageSize: 20, pageCount: 0 } });
      expect((await list(team, { search: 'no such contractor' })).pagination).toEqual({
        total: 0,
        page: 1,
        pageSize: 20,
        pageCount: 0,
      });
    });

    it('orders ties on createdAt by id descending, stably across pages', async () => {
      // Requests are milliseconds apart, so ties are made directly in the database.
      const stamps = [
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
        '2026-02-01T00:00:00.000Z',
      ];
      for (const [index, contractor] of created.entries()) {
        await sut.sql('UPDATE contractors SET created_at = $1 WHERE id = $2', [
          stamps[index % stamps.length],
          contractor.id,
        ]);
      }
      const expected = created
        .map((c, index) => ({ id: c.id, at: stamps[index % stamps.length] }))
        .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
        .map((c) => c.id);
      const walked: string[] = [];
      for (let pageNumber = 1; pageNumber <= 4; pageNumber += 1) {
        const page = await list(team, { page: pageNumber, pageSize: 2 });
        expect(page.pagination.pageCount).toBe(4);
        walked.push(...page.data.map((c) => c.id));
      }
      expect(walked).toEqual(expected);
      expect(new Set(walked).size).toBe(7);
      expect((await list(team)).data[0].createdAt).toBe('2026-02-01T00:00:00.000Z');
    });
  });

  describe('refused queries', () => {
    let team: Team;
    beforeAll(async () => {
      team = await sut.createTeam();
    });

    it.each([
      ['page', { page: 0 }],
      ['page', { page: -1 }],
      ['page', { page: 1.5 }],
      ['page', { page: 'abc' }],
      ['pageSize', { pageSize: 0 }],
      ['pageSize', { pageSize: 51 }],
      ['pageSize', { pageSize: 'ten' }],
      ['search', { search: 'a\u001fb' }],
      ['sort', { sort: 'companyName' }],
      ['updatedSince', { updatedSince: '2027-02-31' }],
      ['property teamId', { teamId: '00000000-0000-4000-8000-000000000000' }],
      ['property limit', { limit: 10 }],
    ])('%s: %j is a 400', async (field, query) => {
      expectFieldError(await listContractors(sut, team, query), field);
    });

    it('names the rule in the error text', async () => {
      expect(expectFieldError(await listContractors(sut, team, { pageSize: 51 }), 'pageSize')).toBe(
        'pageSize must not be greater than 50',
      );
      expect(expectFieldError(await listContractors(sut, team, { page: 0 }), 'page')).toBe(
        'page must not be less than 1',
      );
      expect(expectFieldError(await listContractors(sut, team, { page: 'abc' }), 'page')).toBe(
        'page must be an integer number',
      );
      expect(expectFieldError(await listContractors(sut, team, { pageSize: 1.5 }), 'pageSize')).toBe(
        'pageSize must be an integer number',
      );
      expect(expectFieldError(await listContractors(sut, team, { status: 'active,busy' }), 'status')).toBe(
        'each value in status must be one of the following values: active, inactive, on_holiday',
      );
      expect(expectError(await listContractors(sut, team, { foo: 1 }), 400)).toBe('query parameter foo is not allowed');
    });
  });
});
