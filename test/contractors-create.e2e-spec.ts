import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import {
  CONTRACTOR_KEYS,
  contractorInput,
  countContractors,
  createContractor,
  fullContractorInput,
  getContractor,
  postContractor,
} from './factories/contractors.js';
import { expectFieldError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { emailOfLength, text } from './support/inputs.js';

describe('POST /v1/contractors', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  describe('output', () => {
    it('returns 201 with every field, defaults filled and omitted nullable fields as null', async () => {
      const response = await postContractor(sut, team, { companyName: 'Acme Plumbing', contactName: 'Ann Smith' });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['data']);
      const data = response.body.data;
      expect(Object.keys(data)).toEqual(CONTRACTOR_KEYS);
      expect(data).toEqual({
        id: expect.stringMatching(UUID),
        teamId: team.teamId,
        externalRef: null,
        companyName: 'Acme Plumbing',
        contactName: 'Ann Smith',
        email: null,
        phoneNumber: null,
        fullAddress: null,
        status: 'active',
        trades: [],
        coveragePostcodes: [],
        certifications: [],
        insurance: [],
        notes: null,
        rating: null,
        completedJobs: 0,
        createdAt: expect.stringMatching(ISO_WITH_MS),
        updatedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expect(data.updatedAt).toBe(data.createdAt);
      expect(Math.abs(Date.parse(data.createdAt) - Date.now())).toBeLessThan(60_000);
    });

    it('stores every input field and reads it back the same through GET', async () => {
      const created = await postContractor(sut, team, fullContractorInput({ companyName: 'Bright Sparks' }));
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        companyName: 'Bright Sparks',
        email: 'office@brightsparks.example',
        phoneNumber: '+44 20 7946 0000',
        fullAddress: '1 High Street, London, SW1A 1AA',
        status: 'on_holiday',
        trades: ['electrician', 'plumbing'],
        coveragePostcodes: ['SW1A', 'E1'],
        certifications: [{ type: 'NICEIC', registrationNumber: 'N-123', expiryDate: '2027-01-31T00:00:00.000Z' }],
        insurance: [{ type: 'Public liability', amount: 2_000_000, expiryDate: '2027-06-30T12:00:00.000Z' }],
        notes: 'Prefers morning visits',
        rating: null,
        completedJobs: 0,
      });
      const read = await getContractor(sut, team, created.body.data.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ data: created.body.data });
    });

    it('accepts each status value', async () => {
      for (const status of ['active', 'inactive', 'on_holiday']) {
        expect((await createContractor(sut, team, { status })).status).toBe(status);
      }
    });

    it('trims every string, nested ones included, and stores blank optional strings as null', async () => {
      const data = await createContractor(sut, team, {
        companyName: '  Trim Co \t',
        contactName: '\n Tina ',
        email: '  tina@trim.example ',
        phoneNumber: '   ',
        fullAddress: '',
        notes: ' \n ',
        trades: ['  roofing '],
        coveragePostcodes: [' N1 '],
        certifications: [{ type: ' Gas Safe ', registrationNumber: ' 42 ', expiryDate: ' 2027-01-31 ' }],
        insurance: [{ type: ' Employer ', amount: 5, expiryDate: '' }],
      });
      expect(data).toMatchObject({
        companyName: 'Trim Co',
        contactName: 'Tina',
        email: 'tina@trim.example',
        phoneNumber: null,
        fullAddress: null,
        notes: null,
        trades: ['roofing'],
        coveragePostcodes: ['N1'],
        certifications: [{ type: 'Gas Safe', registrationNumber: '42', expiryDate: '2027-01-31T00:00:00.000Z' }],
        insurance: [{ type: 'Employer', amount: 5, expiryDate: null }],
      });
      const [row] = await sut.sql(
        'SELECT company_name, phone_number, full_address, notes FROM contractors WHERE id = $1',
        [data.id],
      );
      expect(row).toEqual({ company_name: 'Trim Co', phone_number: null, full_address: null, notes: null });
    });

    it('stores "" and explicit null email as null', async () => {
      expect((await createContractor(sut, team, { email: '' })).email).toBeNull();
      expect((await createContractor(sut, team, { email: null, phoneNumber: null, notes: null })).email).toBeNull();
    });

    it('returns nested expiryDate as null when omitted or null, and normalises offsets to UTC', async () => {
      const data = await createContractor(sut, team, {
        certifications: [
          { type: 'A', registrationNumber: '1' },
          { type: 'B', registrationNumber: '2', expiryDate: null },
          { type: 'C', registrationNumber: '3', expiryDate: '2027-01-31T10:30:00+02:00' },
        ],
        insurance: [{ type: 'D', amount: 0.01 }],
      });
      expect(data.certifications).toEqual([
        { type: 'A', registrationNumber: '1', expiryDate: null },
        { type: 'B', registrationNumber: '2', expiryDate: null },
        { type: 'C', registrationNumber: '3', expiryDate: '2027-01-31T08:30:00.000Z' },
      ]);
      expect(data.insurance).toEqual([{ type: 'D', amount: 0.01, expiryDate: null }]);
    });
  });

  describe('string limits', () => {
    const limits: [field: string, max: number][] = [
      ['companyName', 260],
      ['contactName', 260],
      ['phoneNumber', 160],
      ['fullAddress', 560],
      ['notes', 10_000],
    ];
    it.each(limits)('%s accepts exactly %i characters and refuses one more', async (field, max) => {
      const atLimit = await postContractor(sut, team, contractorInput({ [field]: text(max) }));
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data[field]).toBe(text(max));
      expectFieldError(await postContractor(sut, team, contractorInput({ [field]: text(max + 1) })), field);
    });

    it('email accepts 254 characters and refuses 255', async () => {
      const atLimit = await postContractor(sut, team, contractorInput({ email: emailOfLength(254) }));
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data.email).toBe(emailOfLength(254));
      expectFieldError(await postContractor(sut, team, contractorInput({ email: emailOfLength(255) })), 'email');
    });

    it.each(['not-an-email', 'a@', '@b.example', 'a b@c.example'])('email refuses %p', async (email) => {
      expectFieldError(await postContractor(sut, team, contractorInput({ email })), 'email');
    });
  });

  describe('required fields', () => {
    it.each(['companyName', 'contactName'])('%s is required, and must not be empty, blank or null', async (field) => {
      const without = contractorInput();
      delete without[field];
      expect(expectFieldError(await postContractor(sut, team, without), field)).toBe(`${field} is required`);
      for (const value of ['', '   ']) {
        const error = expectFieldError(await postContractor(sut, team, contractorInput({ [field]: value })), field);
        expect(error).toBe(`${field} should not be empty`);
      }
      expectFieldError(await postContractor(sut, team, contractorInput({ [field]: null })), field);
    });

    it('names the rule that failed, not a later one', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ companyName: 42 }, 'companyName must be a string'],
        [{ companyName: text(261) }, 'companyName must be shorter than or equal to 260 characters'],
        [{ email: 7 }, 'email must be an email'],
        [{ trades: 'plumbing' }, 'trades must be an array'],
        [{ trades: [1] }, 'each value in trades must be a string'],
        [{ insurance: [{ type: 'a', amount: 'x' }] }, 'insurance.0.amount must be a finite number'],
        [{ insurance: [{ type: 'a', amount: 0 }] }, 'insurance.0.amount must be a positive number'],
      ];
      for (const [overrides, message] of cases) {
        expect(
          expectFieldError(await postContractor(sut, team, contractorInput(overrides)), Object.keys(overrides)[0]),
        ).toBe(message);
      }
    });

    it.each(['status', 'trades', 'coveragePostcodes', 'certifications', 'insurance'])(
      '%s may be omitted but not null',
      async (field) => {
        expectFieldError(await postContractor(sut, team, contractorInput({ [field]: null })), field);
      },
    );

    it('reports every missing field, joined with "; "', async () => {
      const error = expectFieldError(await postContractor(sut, team, {}), 'companyName');
      expect(error.split('; ').map((part) => part.split(' ')[0])).toEqual(['companyName', 'contactName']);
    });
  });

  describe('wrong types', () => {
    it.each([
      ['companyName', 42],
      ['contactName', ['Ann']],
      ['email', 7],
      ['phoneNumber', 447946000000],
      ['fullAddress', { line: 'x' }],
      ['notes', true],
      ['status', 'retired'],
      ['status', 1],
      ['trades', 'plumbing'],
      ['trades', [1]],
      ['coveragePostcodes', 'SW1A'],
      ['coveragePostcodes', [null]],
      ['certifications', { type: 'x', registrationNumber: 'y' }],
      ['certifications', ['Gas Safe']],
      ['insurance', [null]],
      ['insurance', 'none'],
    ])('%s = %j is a 400 naming the field', async (field, value) => {
      expectFieldError(await postContractor(sut, team, contractorInput({ [field]: value })), field);
    });

    it('names the status values in the error', async () => {
      const error = expectFieldError(await postContractor(sut, team, contractorInput({ status: 'retired' })), 'status');
      expect(error).toContain('active, inactive, on_holiday');
    });
  });

  describe('arrays', () => {
    it('trades: 50 items of 100 characters pass; a 51st item, a 101-character or an empty item fail', async () => {
      const fifty = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 't'));
      expect((await createContractor(sut, team, { trades: fifty })).trades).toEqual(fifty);
      expectFieldError(await postContractor(sut, team, contractorInput({ trades: [...fifty, 'one more'] })), 'trades');
      expectFieldError(await postContractor(sut, team, contractorInput({ trades: [text(101)] })), 'trades');
      expectFieldError(await postContractor(sut, team, contractorInput({ trades: ['ok', ''] })), 'trades');
      expectFieldError(await postContractor(sut, team, contractorInput({ trades: ['  '] })), 'trades');
    });

    it('coveragePostcodes: 500 items of 16 characters pass; a 501st item, a 17-character or an empty item fail', async () => {
      const many = Array.from({ length: 500 }, (_, i) => `P${i}`.padEnd(16, '0'));
      expect((await createContractor(sut, team, { coveragePostcodes: many })).coveragePostcodes).toEqual(many);
      expectFieldError(
        await postContractor(sut, team, contractorInput({ coveragePostcodes: [...many, 'N1'] })),
        'coveragePostcodes',
      );
      expectFieldError(
        await postContractor(sut, team, contractorInput({ coveragePostcodes: [text(17)] })),
        'coveragePostcodes',
      );
      expectFieldError(
        await postContractor(sut, team, contractorInput({ coveragePostcodes: [''] })),
        'coveragePostcodes',
      );
    });

    it('certifications and insurance take 50 items each, not 51', async () => {
      const certification = { type: 'Gas Safe', registrationNumber: '1' };
      const cover = { type: 'Public liability', amount: 1 };
      const data = await createContractor(sut, team, {
        certifications: Array.from({ length: 50 }, () => certification),
        insurance: Array.from({ length: 50 }, () => cover),
      });
      expect([data.certifications.length, data.insurance.length]).toEqual([50, 50]);
      const tooMany = <T>(item: T): T[] => Array.from({ length: 51 }, () => item);
      expectFieldError(
        await postContractor(sut, team, contractorInput({ certifications: tooMany(certification) })),
        'certifications',
      );
      expectFieldError(await postContractor(sut, team, contractorInput({ insurance: tooMany(cover) })), 'insurance');
    });
  });

  describe('nested items', () => {
    it.each([
      ['certifications.0.type', { certifications: [{ registrationNumber: '1' }] }],
      ['certifications.0.type', { certifications: [{ type: ' ', registrationNumber: '1' }] }],
      [
        'certifications.1.registrationNumber',
        {
          certifications: [
            { type: 'a', registrationNumber: '1' },
            { type: 'b', registrationNumber: '' },
          ],
        },
      ],
      ['certifications.0.registrationNumber', { certifications: [{ type: 'a', registrationNumber: null }] }],
      [
        'certifications.0.expiryDate',
        { certifications: [{ type: 'a', registrationNumber: '1', expiryDate: '2027-02-31' }] },
      ],
      [
        'certifications.0.expiryDate',
        { certifications: [{ type: 'a', registrationNumber: '1', expiryDate: 'tomorrow' }] },
      ],
      [
        'certifications.0.expiryDate',
        { certifications: [{ type: 'a', registrationNumber: '1', expiryDate: 20270131 }] },
      ],
      ['insurance.0.type', { insurance: [{ type: '', amount: 1 }] }],
      ['insurance.0.amount', { insurance: [{ type: 'a' }] }],
      ['insurance.0.amount', { insurance: [{ type: 'a', amount: 0 }] }],
      ['insurance.0.amount', { insurance: [{ type: 'a', amount: -5 }] }],
      ['insurance.0.amount', { insurance: [{ type: 'a', amount: '100' }] }],
      ['insurance.0.amount', { insurance: [{ type: 'a', amount: null }] }],
      ['insurance.0.expiryDate', { insurance: [{ type: 'a', amount: 1, expiryDate: '2027-13-01' }] }],
      ['insurance.0.expiryDate', { insurance: [{ type: 'a', amount: 1, expiryDate: '2027-01-31T25:00:00Z' }] }],
    ])('%s: %j is a 400 naming the nested field', async (field, overrides) => {
      expectFieldError(await postContractor(sut, team, contractorInput(overrides)), field);
    });

    it('refuses an insurance amount that does not fit a JSON number', async () => {
      const response = await sut
        .http()
        .post('/v1/contractors')
        .set('Authorization', `Bearer ${team.apiKey}`)
        .set('Content-Type', 'application/json')
        .send('{"companyName":"Big","contactName":"Cover","insurance":[{"type":"a","amount":1e400}]}');
      expectFieldError(response, 'insurance.0.amount');
    });
  });

  describe('unknown and output-only properties', () => {
    it('refuses unknown properties inside certifications and insurance items', async () => {
      const certification = { type: 'a', registrationNumber: '1', issuer: 'x' };
      expect(
        expectFieldError(
          await postContractor(sut, team, contractorInput({ certifications: [certification] })),
          'property certifications.0.issuer',
        ),
      ).toBe('property certifications.0.issuer should not exist');
      const cover = { type: 'a', amount: 1, currency: 'GBP' };
      expectFieldError(
        await postContractor(sut, team, contractorInput({ insurance: [cover] })),
        'property insurance.0.currency',
      );
    });
  });

  it('a rejected request stores nothing', async () => {
    const other = await sut.createTeam('Rejected');
    const rejected = [
      {},
      contractorInput({ companyName: text(261) }),
      contractorInput({ rating: 4 }),
      contractorInput({ insurance: [{ type: 'a', amount: 0 }] }),
      contractorInput({ certifications: [{ type: 'a', registrationNumber: '1', expiryDate: '2027-02-31' }] }),
      contractorInput({ trades: Array.from({ length: 51 }, () => 't') }),
    ];
    for (const body of rejected) expect((await postContractor(sut, other, body)).status).toBe(400);
    expect(await countContractors(sut, other.teamId)).toBe(0);
  });
});
