import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createContractor, listContractors, type ContractorBody } from './factories/contractors.js';
import { expectFieldError } from './support/assertions.js';

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

  describe('refused queries', () => {
    let team: Team;
    beforeAll(async () => {
      team = await sut.createTeam();
    });

    it('names the status values in the error text', async () => {
      expect(expectFieldError(await listContractors(sut, team, { status: 'active,busy' }), 'status')).toBe(
        'each value in status must be one of the following values: active, inactive, on_holiday',
      );
    });
  });
});
