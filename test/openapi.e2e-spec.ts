import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONTRACTOR_KEYS } from './factories/contractors.js';
import { EVERY_RESOURCE } from './support/resources.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  nullable?: boolean;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

interface Content {
  content?: Record<string, { schema: Schema }>;
  headers?: Record<string, unknown>;
}

interface RequestBody extends Content {
  required?: boolean;
  $ref?: string;
}

interface Operation {
  summary?: string;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Content>;
  security?: Array<Record<string, unknown>>;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    requestBodies: Record<string, RequestBody>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

const STATUSES = ['active', 'inactive', 'on_holiday'];
const OUTPUT_ONLY = ['id', 'teamId', 'rating', 'completedJobs', 'createdAt', 'updatedAt'];
const CONTRACTOR_INPUTS = CONTRACTOR_KEYS.filter((key) => !OUTPUT_ONLY.includes(key));

describe('OpenAPI document', () => {
  let sut: TestApp;
  let doc: Document;

  beforeAll(async () => {
    sut = await createTestApp();
    const response = await sut.http().get('/v1/openapi.json');
    expect(response.status).toBe(200);
    doc = response.body as Document;
  });
  afterAll(() => sut.close());

  /** Follows `$ref` and the single-item `allOf` the generator wraps enums and defaults in. */
  function resolve(schema: Schema): Schema {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      const target = doc.components.schemas[name];
      if (!target) throw new Error(`dangling reference ${schema.$ref}`);
      return resolve(target);
    }
    if (schema.allOf?.length === 1) return { ...schema, ...resolve(schema.allOf[0]), allOf: undefined };
    return schema;
  }

  const operation = (method: string, path: string): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return found;
  };
  const jsonSchema = (content: Content | undefined): Schema => {
    const schema = content?.content?.['application/json']?.schema;
    if (!schema) throw new Error('no application/json schema');
    return schema;
  };
  const property = (schema: Schema, name: string): Schema => resolve(resolve(schema).properties?.[name] ?? {});
  const parameter = (op: Operation, name: string): Parameter => {
    const found = op.parameters?.find((p) => p.name === name);
    if (!found) throw new Error(`parameter ${name} is not documented`);
    return found;
  };

  /** Every operation under /v1: all of them need a key. */
  // The one /v1 operation without a key: an attachment's signed download URL (its signature is the permission).
  const SIGNED_DOWNLOAD = '/v1/attachment-downloads/{teamId}/{attachmentId}';
  const authenticated = (): Array<[string, string, Operation]> =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/') && path !== SIGNED_DOWNLOAD)
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, op]): [string, string, Operation] => [method, path, op]),
      );

  it('is served without a key as OpenAPI 3 with version 1.0.0 and a title, outside the rate limit', async () => {
    const response = await sut.http().get('/v1/openapi.json').set('Authorization', 'Bearer not-a-key');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toEqual(expect.stringMatching(/\S/));
  });

  it('declares an apiKey scheme in the Authorization header, required by every /v1 operation', () => {
    const schemes = Object.entries(doc.components.securitySchemes);
    expect(schemes).toHaveLength(1);
    const [name, scheme] = schemes[0];
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    const operations = authenticated();
    expect(operations.length).toBeGreaterThan(0);
    for (const [method, path, op] of operations) {
      expect({ operation: `${method} ${path}`, security: op.security }).toEqual({
        operation: `${method} ${path}`,
        security: [{ [name]: [] }],
      });
    }
    for (const path of ['/health', '/health/ready']) expect(operation('get', path).security).toBeUndefined();
    expect(operation('get', SIGNED_DOWNLOAD).security).toBeUndefined();
  });

  it('documents every contractor operation', () => {
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/contractors'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([
      'DELETE /v1/contractors/{contractorId}',
      'GET /v1/contractors',
      'GET /v1/contractors/{contractorId}',
      'GET /v1/contractors/{contractorId}/history',
      'POST /v1/contractors',
      'PUT /v1/contractors/{contractorId}',
    ]);
  });

  describe('contractor request bodies', () => {
    /** The body, named under `components.requestBodies` (where generated clients keep defaulted fields optional). */
    const named = (method: string, path: string): [string, RequestBody] => {
      const ref = operation(method, path).requestBody?.$ref ?? '';
      const name = ref.replace('#/components/requestBodies/', '');
      const found = doc.components.requestBodies[name];
      if (!found) throw new Error(`${method} ${path}: request body ${ref} is not a named request body`);
      return [name, found];
    };
    const body = (method: string, path: string): Schema => {
      const [, requestBody] = named(method, path);
      expect(requestBody.required).toBe(true);
      return jsonSchema(requestBody);
    };

    it('POST takes CreateContractorDto with every rule of the fields', () => {
      expect(named('post', '/v1/contractors')[0]).toBe('CreateContractorDto');
      const raw = body('post', '/v1/contractors');
      const schema = resolve(raw);
      expect([...(schema.required ?? [])].sort()).toEqual(['companyName', 'contactName']);
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...CONTRACTOR_INPUTS].sort());
      expect(property(schema, 'companyName')).toMatchObject({ type: 'string', maxLength: 260 });
      expect(property(schema, 'contactName')).toMatchObject({ type: 'string', maxLength: 260 });
      expect(property(schema, 'email')).toMatchObject({
        type: 'string',
        format: 'email',
        maxLength: 254,
        nullable: true,
      });
      expect(property(schema, 'phoneNumber')).toMatchObject({ type: 'string', maxLength: 160, nullable: true });
      expect(property(schema, 'fullAddress')).toMatchObject({ type: 'string', maxLength: 560, nullable: true });
      expect(property(schema, 'notes')).toMatchObject({ type: 'string', maxLength: 10_000, nullable: true });
      expect(property(schema, 'status').enum).toEqual(STATUSES);
      expect(property(schema, 'trades')).toMatchObject({
        type: 'array',
        maxItems: 50,
        items: { type: 'string', maxLength: 100 },
      });
      expect(property(schema, 'coveragePostcodes')).toMatchObject({
        type: 'array',
        maxItems: 500,
        items: { type: 'string', maxLength: 16 },
      });
    });

    it('describes the nested certification and insurance items', () => {
      const schema = resolve(body('post', '/v1/contractors'));
      const certifications = property(schema, 'certifications');
      expect(certifications).toMatchObject({ type: 'array', maxItems: 50 });
      const certification = resolve(certifications.items ?? {});
      expect([...(certification.required ?? [])].sort()).toEqual(['registrationNumber', 'type']);
      expect(property(certification, 'type')).toMatchObject({ type: 'string' });
      expect(property(certification, 'registrationNumber')).toMatchObject({ type: 'string' });
      expect(property(certification, 'expiryDate')).toMatchObject({
        type: 'string',
        format: 'date-time',
        nullable: true,
      });

      const insurance = property(schema, 'insurance');
      expect(insurance).toMatchObject({ type: 'array', maxItems: 50 });
      const cover = resolve(insurance.items ?? {});
      expect([...(cover.required ?? [])].sort()).toEqual(['amount', 'type']);
      const amount = property(cover, 'amount');
      expect(amount.type).toBe('number');
      // OpenAPI 3.0 spells "> 0" as minimum 0 + exclusiveMinimum true; 3.1 as exclusiveMinimum 0.
      expect(amount.exclusiveMinimum === 0 || (amount.minimum === 0 && amount.exclusiveMinimum === true)).toBe(true);
      expect(property(cover, 'expiryDate')).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    });

    it('PUT takes UpdateContractorDto: the same rules, nothing required', () => {
      expect(named('put', '/v1/contractors/{contractorId}')[0]).toBe('UpdateContractorDto');
      const raw = body('put', '/v1/contractors/{contractorId}');
      const schema = resolve(raw);
      expect(schema.required ?? []).toEqual([]);
      expect(property(schema, 'companyName')).toMatchObject({ type: 'string', maxLength: 260 });
      expect(property(schema, 'status').enum).toEqual(STATUSES);
      expect(property(schema, 'trades')).toMatchObject({ type: 'array', maxItems: 50 });
      expect(resolve(property(schema, 'certifications').items ?? {}).required).toContain('registrationNumber');
    });

    it('PUT documents no defaults, since an omitted field keeps its value', () => {
      const schema = resolve(body('put', '/v1/contractors/{contractorId}'));
      const withDefault = Object.keys(schema.properties ?? {}).filter(
        (name) => property(schema, name).default !== undefined,
      );
      expect(withDefault).toEqual([]);
    });
  });

  describe('contractor parameters', () => {
    it('lists with page, pageSize (at most 50), search, externalRef, status, trade and postcode in the query', () => {
      const list = operation('get', '/v1/contractors');
      expect((list.parameters ?? []).map((p) => `${p.in}:${p.name}`).sort()).toEqual(
        [
          'query:externalRef',
          'query:page',
          'query:pageSize',
          'query:postcode',
          'query:search',
          'query:sort',
          'query:status',
          'query:trade',
          'query:updatedSince',
        ].sort(),
      );
      expect(parameter(list, 'page').schema).toMatchObject({ minimum: 1 });
      expect(parameter(list, 'pageSize').schema).toMatchObject({ minimum: 1, maximum: 50 });
      expect(parameter(list, 'search').schema).toMatchObject({ type: 'string', maxLength: 200 });
      const status = parameter(list, 'status').schema;
      expect(resolve(status.items ?? status).enum).toEqual(STATUSES);
      expect(parameter(list, 'trade').schema).toMatchObject({ type: 'string' });
      expect(parameter(list, 'postcode').schema).toMatchObject({ type: 'string' });
      for (const name of ['search', 'status', 'trade', 'postcode'])
        expect(parameter(list, name).required).not.toBe(true);
    });

    it('documents page and pageSize as optional integers with their defaults', () => {
      const list = operation('get', '/v1/contractors');
      const paging = ['page', 'pageSize'].map((name) => {
        const { required, schema } = parameter(list, name);
        return { name, required: required ?? false, type: schema.type, default: schema.default };
      });
      expect(paging).toEqual([
        { name: 'page', required: false, type: 'integer', default: 1 },
        { name: 'pageSize', required: false, type: 'integer', default: 20 },
      ]);
    });

    it.each(['get', 'put', 'delete'])('%s one takes contractorId as a required uuid in the path', (method) => {
      const op = operation(method, '/v1/contractors/{contractorId}');
      expect((op.parameters ?? []).filter((p) => p.in === 'path')).toEqual([
        expect.objectContaining({
          name: 'contractorId',
          in: 'path',
          required: true,
          schema: expect.objectContaining({ format: 'uuid' }),
        }),
      ]);
    });
  });

  describe('contractor responses', () => {
    const ok = (method: string, path: string, status: string): Schema =>
      jsonSchema(operation(method, path).responses[status]);

    it('answers create with 201 and get/put with 200, each as {data: ContractorResponse}', () => {
      for (const [method, path, status] of [
        ['post', '/v1/contractors', '201'],
        ['get', '/v1/contractors/{contractorId}', '200'],
        ['put', '/v1/contractors/{contractorId}', '200'],
      ]) {
        const schema = resolve(ok(method, path, status));
        expect(schema.required).toEqual(['data']);
        expect(schema.properties?.data?.$ref).toBe('#/components/schemas/ContractorResponse');
      }
      expect(operation('post', '/v1/contractors').responses['200']).toBeUndefined();
    });

    it('answers the list with {data: [ContractorResponse], pagination}', () => {
      const schema = resolve(ok('get', '/v1/contractors', '200'));
      expect([...(schema.required ?? [])].sort()).toEqual(['data', 'pagination']);
      expect(schema.properties?.data).toMatchObject({
        type: 'array',
        items: { $ref: '#/components/schemas/ContractorResponse' },
      });
      const pagination = property(schema, 'pagination');
      expect([...(pagination.required ?? [])].sort()).toEqual(['page', 'pageCount', 'pageSize', 'total']);
    });

    it('lists every contractor field as always present, nullable ones marked nullable', () => {
      const contractor = resolve({ $ref: '#/components/schemas/ContractorResponse' });
      const fields = Object.keys(contractor.properties ?? {}).sort();
      expect(fields).toEqual([...CONTRACTOR_KEYS].sort());
      expect([...(contractor.required ?? [])].sort()).toEqual(fields);
      for (const name of ['email', 'phoneNumber', 'fullAddress', 'notes', 'rating']) {
        expect({ name, nullable: property(contractor, name).nullable }).toEqual({ name, nullable: true });
      }
      expect(property(contractor, 'status').enum).toEqual(STATUSES);
    });

    it('documents counts as integers', () => {
      const contractor = resolve({ $ref: '#/components/schemas/ContractorResponse' });
      const pagination = resolve({ $ref: '#/components/schemas/Pagination' });
      const types = {
        rating: property(contractor, 'rating').type,
        completedJobs: property(contractor, 'completedJobs').type,
        ...Object.fromEntries(
          ['total', 'page', 'pageSize', 'pageCount'].map((name) => [name, property(pagination, name).type]),
        ),
      };
      expect(types).toEqual({
        rating: 'integer',
        completedJobs: 'integer',
        total: 'integer',
        page: 'integer',
        pageSize: 'integer',
        pageCount: 'integer',
      });
    });

    it.each([
      ['post', '/v1/contractors', ['400', '401', '429']],
      ['get', '/v1/contractors', ['400', '401', '429']],
      ['get', '/v1/contractors/{contractorId}', ['400', '401', '404', '429']],
      ['put', '/v1/contractors/{contractorId}', ['400', '401', '404', '429']],
    ])('%s %s documents its errors as {error: string}', (method, path, statuses) => {
      const responses = operation(method, path).responses;
      for (const status of statuses) {
        const schema = resolve(jsonSchema(responses[status]));
        expect({ status, type: schema.properties?.error?.type, required: schema.required }).toEqual({
          status,
          type: 'string',
          required: ['error'],
        });
      }
      expect(responses['429'].headers).toHaveProperty('Retry-After');
    });
  });

  it('every /v1 operation documents a success with the rate-limit headers, and 401, 429 as {error}', () => {
    for (const [method, path, op] of authenticated()) {
      const success = Object.keys(op.responses).filter((status) => status.startsWith('2'));
      expect({ operation: `${method} ${path}`, success: success.length, summary: typeof op.summary }).toEqual({
        operation: `${method} ${path}`,
        success: 1,
        summary: 'string',
      });
      expect(op.responses[success[0]].headers).toHaveProperty('X-RateLimit-Remaining');
      for (const status of ['401', '429']) {
        expect(resolve(jsonSchema(op.responses[status])).properties?.error?.type).toBe('string');
      }
      const hasId = (op.parameters ?? []).some((p) => p.in === 'path');
      if (hasId) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '404']));
      if (op.requestBody) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413']));
    }
  });

  it('documents a text/csv answer (a string) on the 200 of every resource list and the import template, and on no other operation', () => {
    const lists = EVERY_RESOURCE.map((resource) => resource.path);
    expect(lists.length).toBeGreaterThan(0);
    const withCsv = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, op]) =>
        Object.values(op.responses ?? {}).some((response) => response.content?.['text/csv'])
          ? [`${method.toUpperCase()} ${path}`]
          : [],
      ),
    );
    // Besides the lists' exports, the import's CSV template (a header row to fill in) is CSV.
    expect(withCsv.sort()).toEqual([...lists.map((path) => `GET ${path}`), 'GET /v1/imports/template'].sort());
    for (const path of lists) {
      const csv = operation('get', path).responses['200'].content?.['text/csv']?.schema;
      expect({ path, csv }).toEqual({ path, csv: expect.objectContaining({ type: 'string' }) });
      expect(jsonSchema(operation('get', path).responses['200'])).toBeDefined();
    }
  });

  it('serves Swagger UI at /docs without a key', async () => {
    const page = await sut.http().get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toMatch(/swagger-ui/i);
    const init = await sut.http().get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('Property Portfolio API');
  });
});
