import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeysService } from '../apps/api/src/api-keys/index.js';
import { createDemoRecords } from '../apps/api/src/demo-records.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// Swagger UI's "Try it out" pre-fills each request body with a sample it builds from the schema's examples, and
// each parameter with its example or default. These tests build the same samples and send them to the real app:
// what the documentation offers must be accepted as it stands, except the ids of records the caller has to create
// first, which the operation and the property say how to get.

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  example?: unknown;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  description?: string;
}

interface MediaType {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: Schema;
}

interface Operation {
  description?: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    requestBodies: Record<string, { content: Record<string, MediaType> }>;
  };
}

type Context = 'request' | 'response';

/**
 * Swagger UI's sample of a schema (swagger-ui's `sampleFromSchema`, reduced to what this document uses): `$ref` and
 * `allOf` resolved, then the schema's `example`, else its `default`, else its first `enum` value, else objects
 * property by property (read-only ones left out of requests, write-only ones out of responses), arrays as one item,
 * and otherwise a placeholder by type (`"string"`, `0`, `true`, a fixed uuid, …). Each placeholder used is recorded
 * under its path in `placeholders`.
 */
function sampleOf(doc: Document, schema: Schema, context: Context, placeholders: string[], path = ''): unknown {
  const resolved = resolve(doc, schema);
  if (resolved.example !== undefined) return structuredClone(resolved.example);
  if (resolved.default !== undefined) return structuredClone(resolved.default);
  if (resolved.enum?.length) return resolved.enum[0];
  if (resolved.type === 'object' || resolved.properties) {
    const skip = context === 'request' ? 'readOnly' : 'writeOnly';
    return Object.fromEntries(
      Object.entries(resolved.properties ?? {})
        .filter(([, property]) => resolve(doc, property)[skip] !== true)
        .map(([name, property]) => [name, sampleOf(doc, property, context, placeholders, `${path}.${name}`)]),
    );
  }
  if (resolved.type === 'array') return [sampleOf(doc, resolved.items ?? {}, context, placeholders, `${path}[0]`)];
  placeholders.push(`${path || '(root)'}: ${resolved.type}${resolved.format ? ` (${resolved.format})` : ''}`);
  if (resolved.type === 'string') {
    const byFormat: Record<string, string> = {
      email: 'user@example.com',
      uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      'date-time': new Date().toISOString(),
    };
    return byFormat[resolved.format ?? ''] ?? 'string';
  }
  return resolved.type === 'boolean' ? true : 0;
}

/** A schema with its `$ref` followed and a single-item `allOf` merged into it, as swagger-client resolves them. */
function resolve(doc: Document, schema: Schema): Schema {
  if (schema.$ref) {
    const target = doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`dangling reference ${schema.$ref}`);
    return resolve(doc, target);
  }
  if (schema.allOf) {
    const { allOf, ...own } = schema;
    return Object.assign({}, ...allOf.map((part) => resolve(doc, part)), own) as Schema;
  }
  return schema;
}

/** The JSON body media type of an operation's request, following `components.requestBodies`. */
function requestMedia(doc: Document, op: Operation): MediaType | undefined {
  const ref = op.requestBody?.$ref;
  const body = ref ? doc.components.requestBodies[ref.replace('#/components/requestBodies/', '')] : op.requestBody;
  return body?.content?.['application/json'];
}

/** The body Swagger UI pre-fills: the media type's own example when it has one, else the schema's sample. */
function prefilledBody(doc: Document, op: Operation, placeholders: string[]): Record<string, unknown> {
  const media = requestMedia(doc, op);
  if (!media) throw new Error('no JSON request body');
  const first = media.examples ? Object.values(media.examples)[0]?.value : undefined;
  return structuredClone(media.example ?? first ?? sampleOf(doc, media.schema, 'request', placeholders)) as Record<
    string,
    unknown
  >;
}

/** Every `"string"` found in a value, by path. */
function placeholderStrings(value: unknown, path = ''): string[] {
  if (value === 'string') return [path || '(root)'];
  if (Array.isArray(value)) return value.flatMap((item, index) => placeholderStrings(item, `${path}[${index}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => placeholderStrings(item, `${path}.${key}`));
  return [];
}

/** A field whose example cannot work as it stands: the id of a record the caller creates first. */
interface Substitution {
  field: string;
  /** Where the value comes from (the call that creates such a record), as the operation and the property must say. */
  explainedBy: string;
  value: () => unknown;
}

describe('OpenAPI examples (what Swagger UI pre-fills)', () => {
  let sut: TestApp;
  let doc: Document;
  let auth: [string, string];
  const created: Record<string, string> = {};

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_PRIVATE: true } });
    doc = (await sut.http().get('/v1/openapi.json')).body as Document;
    auth = bearer(await sut.createTeam('Harbour Lettings'));
  });
  afterAll(() => sut.close());

  const operation = (method: string, path: string): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return found;
  };

  /** Builds the pre-filled body, substitutes the ids it cannot know, sends it and returns the answer. */
  async function tryItOut(
    method: 'post' | 'put',
    path: string,
    url: string,
    substitutions: Substitution[] = [],
    as: [string, string] = auth,
  ) {
    const op = operation(method, path);
    const placeholders: string[] = [];
    const body = prefilledBody(doc, op, placeholders);
    expect({ operation: `${method} ${path}`, placeholders }).toEqual({
      operation: `${method} ${path}`,
      placeholders: [],
    });
    const schema = resolve(doc, requestMedia(doc, op)!.schema);
    for (const { field, explainedBy, value } of substitutions) {
      expect(body).toHaveProperty(field);
      expect({ field, operation: op.description }).toEqual({ field, operation: expect.stringContaining(explainedBy) });
      const property = resolve(doc, schema.properties?.[field] ?? {});
      expect({ field, property: property.description }).toEqual({
        field,
        property: expect.stringContaining(explainedBy),
      });
      body[field] = value();
    }
    return sut
      .http()
      [method](url)
      .set(...as)
      .send(body);
  }

  /** The URL Swagger UI calls for `path` as pre-filled: each path parameter replaced by its example. */
  const prefilledUrl = (path: string, op: Operation): string =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const parameter = op.parameters?.find((candidate) => candidate.in === 'path' && candidate.name === name);
      const value = parameter?.example ?? parameter?.schema?.example;
      if (typeof value !== 'string') throw new Error(`${path}: no example for ${name}`);
      return value;
    });

  const unitId: Substitution = { field: 'unitId', explainedBy: 'POST /v1/units', value: () => created.unit };

  it('has no "string" placeholder in any request or response example', () => {
    const found: string[] = [];
    for (const [name, body] of Object.entries(doc.components.requestBodies)) {
      const placeholders: string[] = [];
      const sample = sampleOf(doc, body.content['application/json'].schema, 'request', placeholders);
      found.push(...placeholders.map((at) => `request ${name}${at}`));
      found.push(...placeholderStrings(sample).map((at) => `request ${name}${at}`));
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const placeholders: string[] = [];
      const sample = sampleOf(doc, schema, 'response', placeholders);
      found.push(...placeholders.filter((at) => at.endsWith(': string')).map((at) => `schema ${name}${at}`));
      found.push(...placeholderStrings(sample).map((at) => `schema ${name}${at}`));
    }
    expect(found).toEqual([]);
  });

  it('creates a unit, a landlord, a contractor and a tenant from the pre-filled bodies as they stand', async () => {
    for (const [name, path] of [
      ['unit', '/v1/units'],
      ['landlord', '/v1/landlords'],
      ['contractor', '/v1/contractors'],
      ['tenant', '/v1/tenants'],
    ]) {
      const response = await tryItOut('post', path, path);
      expect({ path, status: response.status, body: response.body as unknown }).toMatchObject({ path, status: 201 });
      created[name] = (response.body as { data: { id: string } }).data.id;
    }
    const unit = await sut
      .http()
      .get(`/v1/units/${created.unit}`)
      .set(...auth);
    expect((unit.body as { data: { fullAddress: string } }).data.fullAddress).toBe(
      'Flat 2, 14 Elm Grove, Redland, Bristol, BS6 6AH, United Kingdom',
    );
  });

  it('reports a work order once the example unitId is replaced by a real unit’s id', async () => {
    const asShown = await tryItOut('post', '/v1/work-orders', '/v1/work-orders');
    expect(asShown.status).toBe(400);
    expect((asShown.body as { error: string }).error).toMatch(/unitId/);

    const response = await tryItOut('post', '/v1/work-orders', '/v1/work-orders', [unitId]);
    expect(response.status).toBe(201);
    const workOrder = (response.body as { data: { id: string; title: string; status: string; priority: string } }).data;
    expect(workOrder).toMatchObject({ title: 'Leaking tap in kitchen', status: 'reported', priority: '1' });
    created.workOrder = workOrder.id;
  });

  it('with the demo team’s records, creates through every POST as pre-filled, and reads and updates the ids the path examples name', async () => {
    const demo = await sut.createTeam('Demo team');
    const demoAuth = bearer(demo);
    await createDemoRecords(sut.app, demo);
    // A JSON create (201): an import's body is CSV (its own check below); the sandbox's reset (202) needs a test key
    // (its own check below).
    const creates = Object.entries(doc.paths).flatMap(([path, operations]) =>
      operations.post?.requestBody &&
      requestMedia(doc, operations.post) &&
      !path.includes('{') &&
      operations.post.responses['201']
        ? [path]
        : [],
    );
    expect(creates).toEqual(expect.arrayContaining(['/v1/units', '/v1/work-orders', '/v1/webhook-endpoints']));
    for (const path of creates) {
      const response = await tryItOut('post', path, path, [], demoAuth);
      expect({ path, status: response.status, body: response.body as unknown }).toMatchObject({ path, status: 201 });
    }

    // A POST under a record (a work order's notes) as pre-filled: its path example names the demo team's record.
    // A multipart upload (an attachment's file) has no JSON body to pre-fill: Swagger UI shows a file picker.
    const nestedCreates = Object.entries(doc.paths).flatMap(([path, operations]) =>
      operations.post?.requestBody && requestMedia(doc, operations.post) && /^\/v1\/[\w-]+\/\{\w+\}\/[\w-]+$/.test(path)
        ? [path]
        : [],
    );
    expect(nestedCreates).toEqual(expect.arrayContaining(['/v1/work-orders/{workOrderId}/notes']));
    for (const path of nestedCreates) {
      const response = await tryItOut('post', path, prefilledUrl(path, operation('post', path)), [], demoAuth);
      expect({ path, status: response.status, body: response.body as unknown }).toMatchObject({ path, status: 201 });
    }

    // Every record operation whose path id has an example (a nested record's too): the demo team holds that record.
    const withExampleIds = Object.entries(doc.paths).filter(
      ([path, operations]) =>
        /^\/v1\/[\w-]+\/\{\w+\}(\/[\w-]+\/\{\w+\})?$/.test(path) &&
        operations.get?.parameters?.some(
          (parameter) => parameter.in === 'path' && (parameter.example ?? parameter.schema?.example) !== undefined,
        ),
    );
    expect(withExampleIds.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        '/v1/units/{unitId}',
        '/v1/work-orders/{workOrderId}',
        '/v1/work-orders/{workOrderId}/notes/{noteId}',
      ]),
    );
    for (const [path, operations] of withExampleIds) {
      const read = await sut
        .http()
        .get(prefilledUrl(path, operations.get))
        .set(...demoAuth);
      expect({ path, status: read.status }).toEqual({ path, status: 200 });
      if (!operations.put) continue; // an attachment is never updated
      const updated = await tryItOut('put', path, prefilledUrl(path, operations.put), [], demoAuth);
      expect({ path, status: updated.status, body: updated.body as unknown }).toMatchObject({ path, status: 200 });
    }

    // Every other read under a record whose path ids all have examples (histories, nested lists, an attachment's
    // bytes) answers as pre-filled. The signed download URL has no examples: its signature must be pasted.
    const nestedReads = Object.entries(doc.paths).filter(
      ([path, operations]) =>
        /^\/v1\/[\w-]+\/\{\w+\}\/./.test(path) &&
        operations.get?.parameters
          ?.filter((parameter) => parameter.in === 'path')
          .every((parameter) => (parameter.example ?? parameter.schema?.example) !== undefined),
    );
    expect(nestedReads.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        '/v1/work-orders/{workOrderId}/history',
        '/v1/work-orders/{workOrderId}/attachments',
        '/v1/work-orders/{workOrderId}/attachments/{attachmentId}/content',
      ]),
    );
    for (const [path, operations] of nestedReads) {
      const read = await sut
        .http()
        .get(prefilledUrl(path, operations.get))
        .set(...demoAuth);
      expect({ path, status: read.status }).toEqual({ path, status: 200 });
    }
    const download = doc.paths['/v1/attachment-downloads/{teamId}/{attachmentId}']?.get;
    expect(download?.parameters?.filter((parameter) => parameter.example ?? parameter.schema?.example)).toEqual([]);
  });

  it('resets the demo team’s sandbox with the pre-filled body and its test key; the live key’s 403 says how to get one', async () => {
    const demo = await sut.createTeam('Demo team with a sandbox');
    // The first start prints the demo team's test key beside its live key (apps/api/src/core/start-up.ts).
    const testKey = await sut.app.get(ApiKeysService).createKey(demo.teamId, 'default', { test: true });
    const path = '/v1/sandbox/reset';
    expect(operation('post', path).description).toContain('test key');
    const refused = await tryItOut('post', path, path, [], bearer(demo));
    expect(refused.status).toBe(403);
    expect((refused.body as { error: string }).error).toContain('keys create --team <teamId> --test');

    const response = await tryItOut('post', path, path, [], bearer(testKey));
    expect({ status: response.status, body: response.body as unknown }).toMatchObject({
      status: 202,
      body: { data: { teamId: testKey.sandboxTeamId, sampleData: true } },
    });
    const units = await sut
      .http()
      .get('/v1/units?pageSize=1')
      .set(...bearer(testKey));
    expect((units.body as { pagination: { total: number } }).pagination.total).toBeGreaterThan(0);
  });

  it('updates every resource with the pre-filled PUT bodies (ids of records the test made)', async () => {
    const cases: Array<[string, string, Substitution[]]> = [
      ['/v1/units/{unitId}', `/v1/units/${created.unit}`, []],
      ['/v1/landlords/{landlordId}', `/v1/landlords/${created.landlord}`, []],
      ['/v1/contractors/{contractorId}', `/v1/contractors/${created.contractor}`, []],
      [
        '/v1/tenants/{tenantId}',
        `/v1/tenants/${created.tenant}`,
        [{ field: 'unitIds', explainedBy: 'POST /v1/units', value: () => [created.unit] }],
      ],
      ['/v1/work-orders/{workOrderId}', `/v1/work-orders/${created.workOrder}`, [unitId]],
    ];
    for (const [path, url, substitutions] of cases) {
      const response = await tryItOut('put', path, url, substitutions);
      expect({ path, status: response.status, body: response.body as unknown }).toMatchObject({ path, status: 200 });
    }
    const workOrder = await sut
      .http()
      .get(`/v1/work-orders/${created.workOrder}`)
      .set(...auth);
    expect((workOrder.body as { data: { status: string } }).data.status).toBe('in_progress');
    const tenant = await sut
      .http()
      .get(`/v1/tenants/${created.tenant}`)
      .set(...auth);
    expect((tenant.body as { data: { tenantUnits: unknown[] } }).data.tenantUnits).toHaveLength(1);
  });

  it('adds and updates a webhook endpoint once the example url is replaced by a reachable one', async () => {
    const url: Substitution = {
      field: 'url',
      explainedBy: 'receiver’s URL',
      value: () => 'https://127.0.0.1:9/property-portfolio',
    };
    const response = await tryItOut('post', '/v1/webhook-endpoints', '/v1/webhook-endpoints', [url]);
    expect(response.status).toBe(201);
    const id = (response.body as { data: { id: string } }).data.id;
    const updated = await tryItOut('put', '/v1/webhook-endpoints/{endpointId}', `/v1/webhook-endpoints/${id}`, [url]);
    expect(updated.status).toBe(200);
  });

  it('covers every operation that takes a body', () => {
    const withBody = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.requestBody)
        .map(([method]) => `${method} ${path}`),
    );
    expect(withBody.sort()).toEqual(
      [
        'post /v1/units',
        'post /v1/landlords',
        'post /v1/contractors',
        'post /v1/tenants',
        'post /v1/work-orders',
        'post /v1/webhook-endpoints',
        'post /v1/work-orders/{workOrderId}/notes',
        'post /v1/work-orders/{workOrderId}/attachments',
        'post /v1/imports',
        'post /v1/sandbox/reset',
        'put /v1/units/{unitId}',
        'put /v1/landlords/{landlordId}',
        'put /v1/contractors/{contractorId}',
        'put /v1/tenants/{tenantId}',
        'put /v1/work-orders/{workOrderId}',
        'put /v1/webhook-endpoints/{endpointId}',
        'put /v1/work-orders/{workOrderId}/notes/{noteId}',
      ].sort(),
    );
  });

  it('pre-fills list parameters with values that keep every record (no fixed dates or cursors)', async () => {
    // The import template is a CSV, not a list; the imports list needs an import.
    const lists = Object.entries(doc.paths).filter(
      ([path, operations]) =>
        path.startsWith('/v1/') && !path.includes('{') && operations.get && path !== '/v1/imports/template',
    );
    // Posted as Swagger UI sends it: to the resource its select starts on (the enum's first value), in each
    // media type with that type's own example; every row is written.
    const resourceParameter = (doc.paths['/v1/imports'].post.parameters ?? []).find(({ name }) => name === 'resource');
    const resourceSchema = resourceParameter?.schema ? resolve(doc, resourceParameter.schema) : {};
    const resource = resourceParameter?.example ?? (resourceSchema as { enum?: unknown[] }).enum?.[0];
    expect(typeof resource).toBe('string');
    const media = doc.paths['/v1/imports'].post.requestBody?.content ?? {};
    expect(Object.keys(media).sort()).toEqual(['application/x-ndjson', 'text/csv']);
    for (const [type, { example }] of Object.entries(media)) {
      expect({ type, example: typeof example }).toEqual({ type, example: 'string' });
      const imported = await sut
        .http()
        .post(`/v1/imports?resource=${String(resource)}`)
        .set(...auth)
        .set('Content-Type', type)
        .send(example as string);
      expect(imported.status).toBe(202);
      const { id } = (imported.body as { data: { id: string } }).data;
      type Finished = { status: string; createdCount: number; updatedCount: number; failedCount: number };
      let finished: Finished = { status: 'queued', createdCount: 0, updatedCount: 0, failedCount: 0 };
      await until(async () => {
        const read = await sut
          .http()
          .get(`/v1/imports/${id}`)
          .set(...auth);
        finished = (read.body as { data: Finished }).data;
        return ['succeeded', 'failed', 'cancelled'].includes(finished.status);
      }, `the ${type} example's import`);
      expect({ type, ...finished }).toMatchObject({ type, status: 'succeeded', failedCount: 0 });
      expect(finished.createdCount + finished.updatedCount).toBe(2);
    }
    expect(lists.length).toBeGreaterThanOrEqual(7);
    for (const [path, operations] of lists) {
      const query = new URLSearchParams();
      for (const parameter of operations.get.parameters ?? []) {
        const schema = parameter.schema ? resolve(doc, parameter.schema) : {};
        const value = parameter.example ?? schema.example ?? schema.default;
        if (value === undefined || parameter.in !== 'query') continue;
        // Every pre-filled query value is a scalar: Swagger UI puts it in the field as text.
        expect(['string', 'number']).toContain(typeof value);
        query.set(parameter.name, typeof value === 'number' ? String(value) : (value as string));
      }
      const response = await sut
        .http()
        .get(`${path}?${query.toString()}`)
        .set(...auth);
      expect({ path, query: query.toString(), status: response.status }).toMatchObject({ path, status: 200 });
      expect({ path, found: (response.body as { data: unknown[] }).data.length > 0 }).toEqual({ path, found: true });
    }
  });

  const errorExamples = (op: Operation): Record<string, string> =>
    Object.fromEntries(
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => [
          status,
          (response.content?.['application/json']?.example as { error: string }).error,
        ]),
    );

  it('gives each error status of an operation its own example, naming the record', () => {
    for (const [path, operations] of Object.entries(doc.paths).filter(([path]) => path.startsWith('/v1/'))) {
      for (const [method, op] of Object.entries(operations)) {
        const examples = errorExamples(op);
        expect({ operation: `${method} ${path}`, distinct: new Set(Object.values(examples)).size }).toEqual({
          operation: `${method} ${path}`,
          distinct: Object.keys(examples).length,
        });
      }
    }
    expect(errorExamples(operation('get', '/v1/work-orders/{workOrderId}'))['404']).toBe('Work order not found');
    expect(errorExamples(operation('put', '/v1/work-orders/{workOrderId}'))['409']).toBe(
      'Cannot change status from completed to cancelled',
    );
  });

  it('documents the 404 and the DELETE 409 with the texts the API sends', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [path, resource] of [
      ['/v1/units/{unitId}', 'units'],
      ['/v1/landlords/{landlordId}', 'landlords'],
      ['/v1/contractors/{contractorId}', 'contractors'],
      ['/v1/tenants/{tenantId}', 'tenants'],
      ['/v1/work-orders/{workOrderId}', 'work-orders'],
    ]) {
      const response = await sut
        .http()
        .get(`/v1/${resource}/${missing}`)
        .set(...auth);
      expect({ path, status: response.status, body: response.body as unknown }).toEqual({
        path,
        status: 404,
        body: { error: errorExamples(operation('get', path))['404'] },
      });
    }
    const notePath = '/v1/work-orders/{workOrderId}/notes/{noteId}';
    const note = await sut
      .http()
      .get(`/v1/work-orders/${created.workOrder}/notes/${missing}`)
      .set(...auth);
    expect(note.body).toEqual({ error: errorExamples(operation('get', notePath))['404'] });
    const workOrder = await sut
      .http()
      .get(`/v1/work-orders/${missing}/notes`)
      .set(...auth);
    expect(workOrder.body).toEqual({
      error: errorExamples(operation('get', '/v1/work-orders/{workOrderId}/notes'))['404'],
    });
    const refused = await sut
      .http()
      .delete(`/v1/units/${created.unit}`)
      .set(...auth);
    expect(refused.status).toBe(409);
    const documented = errorExamples(operation('delete', '/v1/units/{unitId}'))['409'];
    const shape = (text: string): string => text.replace(/\d+ work orders? \([^)]*\)/, 'N work orders (…)');
    expect(shape((refused.body as { error: string }).error)).toBe(shape(documented));
  });

  it('documents each 400 with a text the operation itself sends (a field it has, a bound it sets)', async () => {
    const get = (path: string) =>
      sut
        .http()
        .get(path)
        .set(...auth);
    const cases: Array<[method: string, path: string, send: () => Promise<{ body: unknown }>]> = [
      ['get', '/v1/units/{unitId}', () => get('/v1/units/not-a-uuid')],
      [
        'get',
        '/v1/work-orders/{workOrderId}/notes/{noteId}',
        () => get(`/v1/work-orders/${created.workOrder}/notes/x`),
      ],
      ['get', '/v1/contractors', () => get('/v1/contractors?pageSize=51')],
      ['get', '/v1/events', () => get('/v1/events?limit=101')],
      ['get', '/v1/imports/template', () => get('/v1/imports/template?resource=units&colour=red')],
      [
        'post',
        '/v1/landlords',
        () =>
          sut
            .http()
            .post('/v1/landlords')
            .set(...auth)
            .send({}),
      ],
    ];
    for (const [method, path, send] of cases) {
      const documented = errorExamples(operation(method, path))['400'];
      expect({ operation: `${method} ${path}`, body: (await send()).body }).toEqual({
        operation: `${method} ${path}`,
        body: { error: documented },
      });
    }
    // And no operation keeps the one shared placeholder (a field of one resource) as its 400.
    const placeholder = 'companyName must be shorter than or equal to 260 characters';
    const kept = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => {
          const example = op.responses['400']?.content?.['application/json']?.example as { error?: string } | undefined;
          return example?.error === placeholder;
        })
        .map(([method]) => `${method} ${path}`),
    );
    expect(kept).toEqual([]);
  });

  it('pre-fills no header: no Idempotency-Key, If-Match or If-None-Match is sent unless typed in', () => {
    const prefilled = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.in === 'header')
          .filter((p) => p.example !== undefined || p.schema?.example !== undefined || p.schema?.default !== undefined)
          .map((p) => `${method} ${path} ${p.name}`),
      ),
    );
    expect(prefilled).toEqual([]);
  });
});
