import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  countLandlords,
  createLandlord,
  fullLandlordInput,
  getLandlord,
  LANDLORD_KEYS,
  landlordInput,
  listLandlords,
  postLandlord,
  putLandlord,
  type LandlordBody,
} from './factories/landlords.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError, expectFieldError, idsOf, ISO_WITH_MS, UUID } from './support/assertions.js';
import { emailOfLength, text } from './support/inputs.js';

const LIMITS: [field: string, max: number][] = [
  ['name', 260],
  ['phoneNumber', 160],
  ['fullAddress', 560],
  ['notes', 10_000],
];
const NULLABLE = ['email', 'phoneNumber', 'fullAddress', 'notes'];

describe('Landlords', () => {
  let sut: TestApp;
  let team: Team;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Landlord owners');
  });
  afterAll(() => sut.close());

  describe('POST /v1/landlords', () => {
    it('creates a landlord with every field and reads it back identically', async () => {
      const input = fullLandlordInput();
      const created = await postLandlord(sut, team, input);
      expect(created.status).toBe(201);
      const landlord = created.body.data as LandlordBody;
      expect(Object.keys(landlord).sort()).toEqual([...LANDLORD_KEYS].sort());
      expect(landlord).toMatchObject({ ...input, teamId: team.teamId });
      expect(landlord.id).toMatch(UUID);
      expect(landlord.createdAt).toMatch(ISO_WITH_MS);
      expect(landlord.updatedAt).toBe(landlord.createdAt);
      const read = await getLandlord(sut, team, landlord.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ data: landlord });
    });

    it('defaults status to active and returns omitted nullable fields as null', async () => {
      const landlord = await createLandlord(sut, team, { name: 'Only A Name' });
      expect(landlord).toMatchObject({ name: 'Only A Name', status: 'active', email: null, phoneNumber: null });
      expect(landlord).toMatchObject({ fullAddress: null, notes: null });
      expect(Object.keys(landlord).sort()).toEqual([...LANDLORD_KEYS].sort());
    });

    it.each(LIMITS)('accepts %s at %i characters and refuses one more', async (field, max) => {
      const atLimit = await postLandlord(sut, team, landlordInput({ [field]: text(max) }));
      expect(atLimit.status).toBe(201);
      expect((atLimit.body.data as Record<string, unknown>)[field]).toBe(text(max));
      const before = await countLandlords(sut, team.teamId);
      const error = expectFieldError(await postLandlord(sut, team, landlordInput({ [field]: text(max + 1) })), field);
      expect(error).toBe(`${field} must be shorter than or equal to ${max} characters`);
      expect(await countLandlords(sut, team.teamId)).toBe(before);
    });

    it('accepts an email of 254 characters and refuses 255 or a malformed one', async () => {
      const atLimit = await postLandlord(sut, team, landlordInput({ email: emailOfLength(254) }));
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data.email).toBe(emailOfLength(254));
      expectFieldError(await postLandlord(sut, team, landlordInput({ email: emailOfLength(255) })), 'email');
      for (const email of ['not-an-email', 'owner@', '@example.com', 'a b@example.com', 7]) {
        expect(expectFieldError(await postLandlord(sut, team, landlordInput({ email })), 'email')).toBe(
          'email must be an email',
        );
      }
    });

    it('requires a name that is a non-empty string after trimming', async () => {
      const before = await countLandlords(sut, team.teamId);
      const cases: [unknown, string][] = [
        [undefined, 'name is required'],
        [null, 'name must be a string'],
        [42, 'name must be a string'],
        [['A'], 'name must be a string'],
        ['', 'name should not be empty'],
        [' \t ', 'name should not be empty'],
      ];
      for (const [name, message] of cases) {
        const response = await postLandlord(sut, team, { name, email: 'x@example.com' });
        expect(expectFieldError(response, 'name')).toBe(message);
      }
      expect(await countLandlords(sut, team.teamId)).toBe(before);
    });

    it('accepts status active or inactive only', async () => {
      expect((await createLandlord(sut, team, { status: 'inactive' })).status).toBe('inactive');
      expect((await createLandlord(sut, team, { status: 'active' })).status).toBe('active');
      for (const status of ['on_holiday', 'ACTIVE', '', null, 1]) {
        expect(expectFieldError(await postLandlord(sut, team, landlordInput({ status })), 'status')).toBe(
          'status must be one of the following values: active, inactive',
        );
      }
    });

    it('refuses optional fields of the wrong type', async () => {
      for (const field of NULLABLE) {
        expectFieldError(await postLandlord(sut, team, landlordInput({ [field]: 123 })), field);
        expectFieldError(await postLandlord(sut, team, landlordInput({ [field]: { a: 1 } })), field);
      }
    });

    it('trims every string and stores blank optional strings as null', async () => {
      const landlord = await createLandlord(sut, team, {
        name: '  Quayside Holdings \t',
        email: '  rent@quayside.example ',
        phoneNumber: ' 0117 496 0000 ',
        fullAddress: '\n 3 Dock Lane ',
        notes: '   ',
        status: ' inactive ',
      });
      expect(landlord).toMatchObject({ name: 'Quayside Holdings', email: 'rent@quayside.example' });
      expect(landlord).toMatchObject({ phoneNumber: '0117 496 0000', fullAddress: '3 Dock Lane', notes: null });
      expect(landlord.status).toBe('inactive');
      const blanks = await createLandlord(sut, team, { email: '', phoneNumber: '', fullAddress: ' ', notes: '' });
      expect(blanks).toMatchObject({ email: null, phoneNumber: null, fullAddress: null, notes: null });
      const [row] = await sut.sql('SELECT email, phone_number, full_address, notes FROM landlords WHERE id = $1', [
        blanks.id,
      ]);
      expect(row).toEqual({ email: null, phone_number: null, full_address: null, notes: null });
    });
  });

  describe('GET and PUT /v1/landlords/{landlordId}', () => {
    it('updates only the fields sent and moves updatedAt on every PUT', async () => {
      const original = await createLandlord(sut, team, fullLandlordInput());
      const first = await putLandlord(sut, team, original.id, { phoneNumber: '07700 900123' });
      expect(first.status).toBe(200);
      const updated = first.body.data as LandlordBody;
      expect(updated).toEqual({ ...original, phoneNumber: '07700 900123', updatedAt: updated.updatedAt });
      expect(updated.updatedAt).toMatch(ISO_WITH_MS);
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));

      const empty = await putLandlord(sut, team, original.id, {});
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual({ ...updated, updatedAt: empty.body.data.updatedAt });
      expect(Date.parse(empty.body.data.updatedAt)).toBeGreaterThan(Date.parse(updated.updatedAt));

      const same = await putLandlord(sut, team, original.id, { name: updated.name });
      expect(Date.parse(same.body.data.updatedAt)).toBeGreaterThan(Date.parse(empty.body.data.updatedAt));
      expect((await getLandlord(sut, team, original.id)).body.data).toEqual(same.body.data);
    });

    it('clears nullable fields with null or "" and keeps the rest', async () => {
      const original = await createLandlord(sut, team, fullLandlordInput());
      const clear = { email: null, phoneNumber: '', fullAddress: null, notes: ' ' };
      const cleared = await putLandlord(sut, team, original.id, clear);
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ name: original.name, status: original.status });
      expect(cleared.body.data).toMatchObject({ email: null, phoneNumber: null, fullAddress: null, notes: null });
      expect((await getLandlord(sut, team, original.id)).body.data).toEqual(cleared.body.data);
    });

    it('changes status both ways and replaces values, trimmed', async () => {
      const original = await createLandlord(sut, team);
      const inactive = await putLandlord(sut, team, original.id, { status: 'inactive', name: '  Renamed Ltd ' });
      expect(inactive.body.data).toMatchObject({ status: 'inactive', name: 'Renamed Ltd' });
      const active = await putLandlord(sut, team, original.id, { status: 'active' });
      expect(active.body.data).toMatchObject({ status: 'active', name: 'Renamed Ltd' });
    });

    it('refuses an invalid PUT and leaves the landlord exactly as it was', async () => {
      const original = await createLandlord(sut, team, fullLandlordInput());
      const bad: [Record<string, unknown>, string][] = [
        [{ name: null }, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '  ' }, 'name'],
        [{ status: null }, 'status'],
        [{ status: 'on_holiday' }, 'status'],
        [{ email: 'nope' }, 'email'],
        [{ notes: text(10_001) }, 'notes'],
        [{ phoneNumber: text(161), name: 'Would Change' }, 'phoneNumber'],
      ];
      for (const [body, field] of bad) expectFieldError(await putLandlord(sut, team, original.id, body), field);
      const rating = await putLandlord(sut, team, original.id, { rating: 'x', name: 'Would Change' });
      expect(expectError(rating, 400)).toBe('property rating should not exist');
      expect((await getLandlord(sut, team, original.id)).body.data).toEqual(original);
    });
  });

  describe('GET /v1/landlords', () => {
    let listTeam: Team;
    const byToken: Record<string, LandlordBody> = {};

    beforeAll(async () => {
      listTeam = await sut.createTeam('Search team');
      const inputs: Record<string, Record<string, unknown>> = {
        name: { name: 'Marigold NAMETOKEN Estates', status: 'active' },
        email: { name: 'Second', email: 'lets@emailtoken.example', status: 'inactive' },
        phone: { name: 'Third', phoneNumber: '0161 PHONETOKEN 55', status: 'active' },
        address: { name: 'Fourth', fullAddress: '9 ADDRESSTOKEN Row', status: 'active' },
        notes: { name: 'Fifth', notes: 'NOTESTOKEN here', status: 'inactive' },
        percent: { name: '100% Lettings', status: 'active' },
        underscore: { name: 'Snake_Case Homes', status: 'active' },
        plain: { name: '1000 Lettings SnakeXCase Back\\slash', status: 'inactive' },
      };
      for (const [token, input] of Object.entries(inputs)) byToken[token] = await createLandlord(sut, listTeam, input);
    });

    const search = async (term: string, extra: Record<string, string | number> = {}): Promise<string[]> =>
      idsOf(await listLandlords(sut, listTeam, { search: term, ...extra })).sort();

    it('searches name, email and phone number, case-insensitively and trimmed', async () => {
      expect(await search('nametoken')).toEqual([byToken.name.id]);
      expect(await search('  EmailToken ')).toEqual([byToken.email.id]);
      expect(await search('phonetoken 5')).toEqual([byToken.phone.id]);
      expect(await search('marigold nametoken')).toEqual([byToken.name.id]);
    });

    it('does not search the address or the notes, nor across two fields', async () => {
      expect(await search('ADDRESSTOKEN')).toEqual([]);
      expect(await search('NOTESTOKEN')).toEqual([]);
      expect(await search('secondlets')).toEqual([]);
      expect(await search('Second lets')).toEqual([]);
    });

    it('takes %, _ and \\ literally', async () => {
      expect(await search('%')).toEqual([byToken.percent.id]);
      expect(await search('0%')).toEqual([byToken.percent.id]);
      expect(await search('snake_case')).toEqual([byToken.underscore.id]);
      expect(await search('_')).toEqual([byToken.underscore.id]);
      expect(await search('100%Lettings')).toEqual([]);
      expect(await search('\\')).toEqual([byToken.plain.id]);
    });

    it('filters by one status or a comma list, combined with search', async () => {
      const inactive = [byToken.email.id, byToken.notes.id, byToken.plain.id].sort();
      expect(idsOf(await listLandlords(sut, listTeam, { status: 'inactive' })).sort()).toEqual(inactive);
      const active = idsOf(await listLandlords(sut, listTeam, { status: 'active' }));
      expect(active).toHaveLength(5);
      expect(active.some((id) => inactive.includes(id))).toBe(false);
      expect(idsOf(await listLandlords(sut, listTeam, { status: 'active, inactive' }))).toHaveLength(8);
      const repeated = await sut
        .http()
        .get('/v1/landlords?status=inactive&status=active')
        .set(...bearer(listTeam));
      expect(idsOf(repeated)).toHaveLength(8);
      expect(await search('lettings', { status: 'inactive' })).toEqual([byToken.plain.id]);
      expect(await search('lettings', { status: 'active' })).toEqual([byToken.percent.id]);
    });

    it('refuses unknown status values', async () => {
      for (const status of ['archived', 'active,archived', 'ACTIVE']) {
        expectFieldError(await listLandlords(sut, listTeam, { status }), 'status');
      }
    });
  });

  it('documents the five operations and the create rules in the OpenAPI document', async () => {
    const doc = (await sut.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
      components: {
        schemas: Record<string, unknown>;
        // Request bodies are named here (not under schemas) so generated clients keep defaulted fields optional.
        requestBodies: Record<
          string,
          { content: { 'application/json': { schema: { required?: string[]; properties: Record<string, unknown> } } } }
        >;
      };
    };
    const body = (name: string) => doc.components.requestBodies[name].content['application/json'].schema;
    expect(Object.keys(doc.paths['/v1/landlords']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/landlords/{landlordId}']).sort()).toEqual(['delete', 'get', 'put']);
    const create = body('CreateLandlordDto');
    expect(create.required).toEqual(['name']);
    expect(create.properties.name).toMatchObject({ type: 'string', maxLength: 260 });
    expect(body('UpdateLandlordDto').required ?? []).toEqual([]);
    expect(doc.components.schemas.LandlordStatus).toEqual({ type: 'string', enum: ['active', 'inactive'] });
  });

  describe('team isolation', () => {
    it("never finds another team's landlord by search or status", async () => {
      const owner = await sut.createTeam('Owner');
      const intruder = await sut.createTeam('Intruder');
      const landlord = await createLandlord(sut, owner, fullLandlordInput({ name: 'Isolated ISOTOKEN Trust' }));
      const own = await createLandlord(sut, intruder, { name: 'Intruder ISOTOKEN Own' });
      expect(idsOf(await listLandlords(sut, intruder, { search: 'isotoken' }))).toEqual([own.id]);
      expect(idsOf(await listLandlords(sut, intruder, { status: 'inactive' }))).toEqual([]);
      expect(idsOf(await listLandlords(sut, owner, { search: 'isotoken' }))).toEqual([landlord.id]);
    });
  });
});
