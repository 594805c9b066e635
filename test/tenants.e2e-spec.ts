import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { createTenant, getTenant, postTenant, putTenant, TENANT_KEYS, tenantInput } from './factories/tenants.js';
import { expectError, expectFieldError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { emailOfLength, text } from './support/inputs.js';

const LIMITS = [
  { field: 'firstName', max: 160 },
  { field: 'lastName', max: 160 },
  { field: 'phoneNumber', max: 160 },
  { field: 'notes', max: 10_000 },
] as const;
const REQUIRED = ['firstName', 'lastName'] as const;
const NULLABLE = ['email', 'phoneNumber', 'notes'] as const;

describe('Tenants: create, read, update', () => {
  let sut: TestApp;
  let team: Team;
  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam();
  });
  afterAll(() => sut.close());

  describe('POST /v1/tenants', () => {
    it('returns 201 with every field, omitted nullable fields as null and no links', async () => {
      const response = await postTenant(sut, team, { firstName: 'Ada', lastName: 'Lovelace' });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['data']);
      const data = response.body.data;
      expect(Object.keys(data)).toEqual(TENANT_KEYS);
      expect(data).toEqual({
        id: expect.stringMatching(UUID),
        teamId: team.teamId,
        externalRef: null,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: null,
        phoneNumber: null,
        notes: null,
        tenantUnits: [],
        createdAt: expect.stringMatching(ISO_WITH_MS),
        updatedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expect(data.updatedAt).toBe(data.createdAt);
      const read = await getTenant(sut, team, data.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ data });
    });

    it('stores every field, trimmed', async () => {
      const data = await createTenant(sut, team, {
        firstName: ' Grace ',
        lastName: '\tHopper',
        email: ' grace@navy.example ',
        phoneNumber: ' +1 555 0100 ',
        notes: ' Prefers email\nafter 5pm ',
      });
      expect(data).toMatchObject({
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@navy.example',
        phoneNumber: '+1 555 0100',
        notes: 'Prefers email\nafter 5pm',
      });
      const [row] = await sut.sql('SELECT team_id, first_name, email, notes FROM tenants WHERE id = $1', [data.id]);
      expect(row).toEqual({
        team_id: team.teamId,
        first_name: 'Grace',
        email: 'grace@navy.example',
        notes: 'Prefers email\nafter 5pm',
      });
    });

    it.each(NULLABLE)('stores "", blank and null %s as null', async (field) => {
      for (const value of ['', '   ', null]) {
        expect((await createTenant(sut, team, { [field]: value }))[field]).toBeNull();
      }
    });

    it.each(LIMITS)('accepts $field at $max characters and refuses one more', async ({ field, max }) => {
      expect((await createTenant(sut, team, { [field]: text(max) }))[field]).toBe(text(max));
      const over = await postTenant(sut, team, tenantInput({ [field]: text(max + 1) }));
      expect(expectFieldError(over, field)).toBe(`${field} must be shorter than or equal to ${max} characters`);
    });

    it('accepts an email of 254 characters and refuses 255', async () => {
      expect((await createTenant(sut, team, { email: emailOfLength(254) })).email).toBe(emailOfLength(254));
      expectFieldError(await postTenant(sut, team, tenantInput({ email: emailOfLength(255) })), 'email');
    });

    it.each(['not-an-email', 'a@b', 'two@@example.com', 'spaces in@example.com'])(
      'refuses the email %j',
      async (email) => {
        expect(expectFieldError(await postTenant(sut, team, tenantInput({ email })), 'email')).toBe(
          'email must be an email',
        );
      },
    );

    it.each(REQUIRED)('requires %s: missing, empty, blank or null is 400', async (field) => {
      for (const value of [undefined, '', '  ', null]) {
        const body = tenantInput({ [field]: value });
        if (value === undefined) delete body[field];
        expectFieldError(await postTenant(sut, team, body), field);
      }
    });

    it.each([...REQUIRED, ...NULLABLE])('refuses a non-string %s', async (field) => {
      expectFieldError(await postTenant(sut, team, tenantInput({ [field]: 42 })), field);
      expectFieldError(await postTenant(sut, team, tenantInput({ [field]: ['Ada'] })), field);
    });

    it.each(['unitId', 'fullName'])('refuses %s, a near miss of unitIds or the names', async (property) => {
      const response = await postTenant(sut, team, tenantInput({ [property]: 'x' }));
      expect(expectFieldError(response, property)).toBe(`property ${property} should not exist`);
    });

    it('names every failing field, joined with "; "', async () => {
      const error = expectError(await postTenant(sut, team, { email: 'nope', notes: 7 }), 400);
      expect(error.split('; ').map((part) => part.split(' ')[0])).toEqual(['firstName', 'lastName', 'email', 'notes']);
    });
  });

  describe('PUT /v1/tenants/{tenantId}', () => {
    it('changes only the given fields and moves updatedAt', async () => {
      const tenant = await createTenant(sut, team, { email: 'old@example.com', phoneNumber: '0100', notes: 'n' });
      const response = await putTenant(sut, team, tenant.id, { firstName: 'Renamed', email: 'new@example.com' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...tenant,
        firstName: 'Renamed',
        email: 'new@example.com',
        updatedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(tenant.updatedAt));
      expect((await getTenant(sut, team, tenant.id)).body).toEqual(response.body);
    });

    it('clears nullable fields with null or ""', async () => {
      const tenant = await createTenant(sut, team, { email: 'x@example.com', phoneNumber: '0100', notes: 'n' });
      const response = await putTenant(sut, team, tenant.id, { email: null, phoneNumber: '', notes: '  ' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ email: null, phoneNumber: null, notes: null });
      const [row] = await sut.sql('SELECT email, phone_number, notes FROM tenants WHERE id = $1', [tenant.id]);
      expect(row).toEqual({ email: null, phone_number: null, notes: null });
    });

    it('refuses a malformed or over-long email and keeps the old one', async () => {
      const tenant = await createTenant(sut, team, { email: 'keep@example.com' });
      expectFieldError(await putTenant(sut, team, tenant.id, { email: 'nope' }), 'email');
      expectFieldError(await putTenant(sut, team, tenant.id, { email: emailOfLength(255) }), 'email');
      expect((await putTenant(sut, team, tenant.id, { email: emailOfLength(254) })).body.data.email).toBe(
        emailOfLength(254),
      );
    });
  });

  describe('OpenAPI', () => {
    it('documents the tenant schema with nullable fields, links and input-only unitIds', async () => {
      const { components } = (await sut.http().get('/v1/openapi.json')).body;
      const schemas = components.schemas;
      // Request bodies are named under requestBodies, so generated clients keep defaulted fields optional.
      const body = (name: string) => components.requestBodies[name].content['application/json'].schema;
      expect(schemas.TenantResponse.properties).toMatchObject({
        email: { type: 'string', format: 'email', nullable: true },
        phoneNumber: { type: 'string', nullable: true },
        notes: { type: 'string', nullable: true },
        tenantUnits: { type: 'array', items: { $ref: '#/components/schemas/TenantUnitLinkResponse' } },
      });
      expect(schemas.TenantResponse.properties.unitIds).toBeUndefined();
      expect(schemas.TenantUnitLinkResponse.properties.unit).toEqual({
        $ref: '#/components/schemas/LinkedUnitResponse',
      });
      expect(body('CreateTenantDto').required.sort()).toEqual(['firstName', 'lastName']);
      expect(body('CreateTenantDto').properties.unitIds).toMatchObject({
        type: 'array',
        maxItems: 100,
        items: { format: 'uuid' },
      });
      expect(body('UpdateTenantDto').required).toBeUndefined();
    });
  });
});
