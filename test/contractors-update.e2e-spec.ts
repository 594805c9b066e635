import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import {
  createContractor,
  fullContractorInput,
  getContractor,
  listContractors,
  postContractor,
  putContractor,
  type ContractorBody,
} from './factories/contractors.js';
import { expectFieldError, ISO_WITH_MS } from './support/assertions.js';
import { text } from './support/inputs.js';

describe('GET and PUT /v1/contractors/:contractorId', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  const createFull = async (): Promise<ContractorBody> => {
    const response = await postContractor(sut, team, fullContractorInput());
    expect(response.status).toBe(201);
    return response.body.data as ContractorBody;
  };

  /** A successful PUT, returning the record it answered with. */
  const update = async (id: string, body: Record<string, unknown>, as: Team = team): Promise<ContractorBody> => {
    const response = await putContractor(sut, as, id, body);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data']);
    return response.body.data as ContractorBody;
  };

  const read = async (id: string): Promise<ContractorBody> => {
    const response = await getContractor(sut, team, id);
    expect(response.status).toBe(200);
    return response.body.data as ContractorBody;
  };

  describe('PUT', () => {
    it('changes only the fields given and keeps createdAt', async () => {
      const before = await createFull();
      const after = await update(before.id, { phoneNumber: '  0161 496 0000 ', status: 'inactive' });
      expect(after).toEqual({
        ...before,
        phoneNumber: '0161 496 0000',
        status: 'inactive',
        updatedAt: after.updatedAt,
      });
      expect(after.updatedAt).toMatch(ISO_WITH_MS);
      expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      expect(await read(before.id)).toEqual(after);
    });

    it('can set every field at once', async () => {
      const before = await createContractor(sut, team);
      const after = await update(before.id, {
        companyName: 'Renamed Ltd',
        contactName: 'New Contact',
        email: 'new@renamed.example',
        phoneNumber: '1',
        fullAddress: '2 Low Road',
        status: 'on_holiday',
        trades: ['glazing'],
        coveragePostcodes: ['M1'],
        certifications: [{ type: 'FENSA', registrationNumber: 'F1', expiryDate: '2027-01-31' }],
        insurance: [{ type: 'Employer', amount: 0.01 }],
        notes: 'n',
      });
      expect(after).toMatchObject({
        companyName: 'Renamed Ltd',
        contactName: 'New Contact',
        email: 'new@renamed.example',
        phoneNumber: '1',
        fullAddress: '2 Low Road',
        status: 'on_holiday',
        trades: ['glazing'],
        coveragePostcodes: ['M1'],
        certifications: [{ type: 'FENSA', registrationNumber: 'F1', expiryDate: '2027-01-31T00:00:00.000Z' }],
        insurance: [{ type: 'Employer', amount: 0.01, expiryDate: null }],
        notes: 'n',
      });
    });

    it('null or "" clears each nullable field', async () => {
      const before = await createFull();
      const cleared = await update(before.id, { email: null, phoneNumber: '', fullAddress: null, notes: '  ' });
      expect(cleared).toMatchObject({ email: null, phoneNumber: null, fullAddress: null, notes: null });
      expect(await update(before.id, { email: '' })).toMatchObject({ email: null });
      expect(cleared.companyName).toBe(before.companyName);
    });

    it('replaces arrays whole; [] empties them', async () => {
      const before = await createFull();
      const replaced = await update(before.id, {
        trades: ['roofing'],
        certifications: [{ type: 'CSCS', registrationNumber: 'C9' }],
      });
      expect(replaced.trades).toEqual(['roofing']);
      expect(replaced.certifications).toEqual([{ type: 'CSCS', registrationNumber: 'C9', expiryDate: null }]);
      expect(replaced.coveragePostcodes).toEqual(before.coveragePostcodes);
      expect(replaced.insurance).toEqual(before.insurance);
      const emptied = await update(before.id, { trades: [], coveragePostcodes: [], certifications: [], insurance: [] });
      expect(emptied).toMatchObject({ trades: [], coveragePostcodes: [], certifications: [], insurance: [] });
    });

    it('moves updatedAt forward on every success, even when nothing changes', async () => {
      const before = await createFull();
      const same = { companyName: before.companyName, trades: before.trades };
      const stamps = [before.updatedAt];
      for (const body of [same, same, {}, {}]) stamps.push((await update(before.id, body)).updatedAt);
      for (let i = 1; i < stamps.length; i += 1) {
        expect(Date.parse(stamps[i])).toBeGreaterThan(Date.parse(stamps[i - 1]));
      }
      const after = await read(before.id);
      expect(after).toEqual({ ...before, updatedAt: stamps[stamps.length - 1] });
    });

    describe('a rejected PUT changes nothing', () => {
      const rejected: [field: string, body: Record<string, unknown>][] = [
        ['companyName', { companyName: null }],
        ['companyName', { companyName: '' }],
        ['companyName', { companyName: '   ' }],
        ['contactName', { contactName: null }],
        ['contactName', { contactName: text(261) }],
        ['email', { email: 'not-an-email' }],
        ['status', { status: null }],
        ['status', { status: 'retired' }],
        ['trades', { trades: null }],
        ['coveragePostcodes', { coveragePostcodes: null }],
        ['certifications', { certifications: null }],
        ['insurance', { insurance: null }],
        ['notes', { notes: text(10_001) }],
        ['insurance.0.amount', { insurance: [{ type: 'a', amount: 0 }] }],
        [
          'certifications.0.expiryDate',
          { certifications: [{ type: 'a', registrationNumber: '1', expiryDate: '2027-02-31' }] },
        ],
        ['property id', { id: randomUUID() }],
        ['property teamId', { teamId: randomUUID() }],
        ['property rating', { rating: 4 }],
        ['property completedJobs', { completedJobs: 1 }],
        ['property createdAt', { createdAt: '2020-01-01' }],
        ['property certifications.0.issuer', { certifications: [{ type: 'a', registrationNumber: '1', issuer: 'x' }] }],
        ['property insurance.0.currency', { insurance: [{ type: 'a', amount: 1, currency: 'GBP' }] }],
      ];
      let original: ContractorBody;
      beforeAll(async () => {
        original = await createFull();
      });

      it.each(rejected)('%s: %j', async (field, body) => {
        // Each refused body also carries a valid change, to show no part of it is applied.
        expectFieldError(await putContractor(sut, team, original.id, { ...body, phoneNumber: '999' }), field);
        expect(await read(original.id)).toEqual(original);
      });
    });
  });

  describe('completedJobs', () => {
    it('counts the completed work orders assigned to the contractor, and nothing else', async () => {
      const contractor = await createContractor(sut, team);
      const other = await createContractor(sut, team);
      const [unit] = await sut.sql<{ id: string }>(
        `INSERT INTO units (team_id, address_line1, city, country, postcode, full_address)
         VALUES ($1, '1 Road', 'Leeds', 'UK', 'LS1 1AA', '1 Road, Leeds, LS1 1AA, UK') RETURNING id`,
        [team.teamId],
      );
      const orders: [status: string, contractorId: string | null][] = [
        ['completed', contractor.id],
        ['completed', contractor.id],
        ['in_progress', contractor.id],
        ['cancelled', contractor.id],
        ['completed', other.id],
        ['completed', null],
      ];
      for (const [index, [status, contractorId]] of orders.entries()) {
        await sut.sql(
          `INSERT INTO work_orders (team_id, number, title, status, unit_id, contractor_id) VALUES ($1, $2, 'Leak', $3, $4, $5)`,
          [team.teamId, 1000 + index, status, unit.id, contractorId],
        );
      }
      expect((await read(contractor.id)).completedJobs).toBe(2);
      expect((await read(other.id)).completedJobs).toBe(1);
      const listed = await listContractors(sut, team, { search: contractor.companyName });
      expect(listed.body.data.map((c: ContractorBody) => [c.id, c.completedJobs])).toEqual([[contractor.id, 2]]);
      expect((await update(contractor.id, { notes: 'x' })).completedJobs).toBe(2);
    });
  });

  describe('another team', () => {
    let owner: Team;
    let stranger: Team;
    let record: ContractorBody;
    beforeAll(async () => {
      owner = await sut.createTeam('Owner');
      stranger = await sut.createTeam('Stranger');
      record = (await postContractor(sut, owner, fullContractorInput({ companyName: 'Owners Only Ltd' }))).body
        .data as ContractorBody;
      await createContractor(sut, stranger, { companyName: 'Stranger Own Ltd' });
    });

    it('does not find it by search or filter', async () => {
      const queries: Record<string, string>[] = [
        { search: 'Owners Only' },
        { trade: 'plumbing' },
        { postcode: 'SW1A 1AA' },
        { status: 'on_holiday' },
      ];
      for (const query of queries) {
        const found = await listContractors(sut, stranger, query);
        expect({ query, total: found.body.pagination.total, data: found.body.data }).toEqual({
          query,
          total: 0,
          data: [],
        });
      }
      const mine = await listContractors(sut, owner, { search: 'Owners Only' });
      expect(mine.body.data.map((c: ContractorBody) => c.id)).toEqual([record.id]);
    });
  });
});
