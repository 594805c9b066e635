import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openApiDocumentOf } from '../apps/api/src/core/configure-app.js';
import { operationsOf, resolveSchema, type OpenApiDocument, type Parameter } from './reliability/openapi.js';
import { createRecord, RESOURCES_UNDER_TEST } from './support/resources.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// Every query parameter the document gives a read is one the service takes: sent alone with a value its schema
// allows, it is never a server fault, and a value the schema fully decides (an enum, a number in range, a
// boolean, a date-time, a UUID) is a 200. Derived from the served document, so a parameter documented on a list
// that cannot serve it (issue: `externalRef` on the webhook lists, which have none, was a 500) shows here.

/** A value the parameter's schema allows, and whether the schema alone makes it a valid one. */
function valueOf(doc: OpenApiDocument, parameter: Parameter): { value: string; decided: boolean } {
  const schema = resolveSchema(doc, parameter.schema);
  const items = schema.type === 'array' ? resolveSchema(doc, schema.items) : undefined;
  if (schema.enum?.length) return { value: String(schema.enum[0]), decided: true };
  if (items?.enum?.length) return { value: String(items.enum[0]), decided: true };
  const example = parameter.example ?? schema.example;
  if (typeof example === 'string' || typeof example === 'number') return { value: String(example), decided: false };
  if (schema.type === 'integer' || schema.type === 'number') {
    return { value: String(schema.minimum ?? 1), decided: true };
  }
  if (schema.type === 'boolean') return { value: 'true', decided: true };
  if (schema.format === 'date-time') return { value: '2026-01-01T00:00:00Z', decided: true };
  if (schema.format === 'uuid') return { value: randomUUID(), decided: true };
  return { value: 'x'.repeat(Math.max(1, schema.minLength ?? 1)), decided: false };
}

describe('documented query parameters', () => {
  let sut: TestApp;
  let team: Team;
  /** A record of the team under each collection path, for the `{…}` of the paths below it. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    team = await sut.createTeam('Query parameters');
    for (const resource of RESOURCES_UNDER_TEST) ids.set(resource.path, (await createRecord(sut, team, resource)).id);
    const endpoint = await sut
      .http()
      .post('/v1/webhook-endpoints')
      .set(...bearer(team))
      .send({ url: 'http://127.0.0.1:9/hooks' })
      .expect(201);
    ids.set('/v1/webhook-endpoints', (endpoint.body as { data: { id: string } }).data.id);
    const started = await sut
      .http()
      .post('/v1/imports?resource=landlords')
      .set(...bearer(team))
      .set('Content-Type', 'text/csv')
      .send('name,externalRef\r\nQuery Estates,QP-1\r\n')
      .expect(202);
    ids.set('/v1/imports', (started.body as { data: { id: string } }).data.id);
  });
  afterAll(() => sut.close());

  it('takes every one a read documents: never a 5xx, and a 200 for a value its schema decides', async () => {
    const doc = openApiDocumentOf(sut.app) as unknown as OpenApiDocument;
    const faults: string[] = [];
    let checked = 0;
    for (const operation of operationsOf(doc)) {
      if (operation.method !== 'GET' || !operation.secured || operation.query.length === 0) continue;
      // `/v1/work-orders/{workOrderId}/notes` → the work order made above; a path with a `{…}` of nothing made
      // above (one attachment, one note) has no query parameters to check anyway.
      const path = operation.path.replace(/(\/v1\/[^/{]+)\/\{[^}]+\}/, (whole, collection: string) =>
        ids.has(collection) ? `${collection}/${ids.get(collection)}` : whole,
      );
      if (path.includes('{')) {
        faults.push(`${operation.name}: no record made for its path`);
        continue;
      }
      for (const parameter of operation.query) {
        const { value, decided } = valueOf(doc, parameter);
        const answer = await sut
          .http()
          .get(path)
          .query({ [parameter.name]: value })
          .set(...bearer(team));
        checked++;
        if (answer.status >= 500 || (decided && answer.status !== 200)) {
          faults.push(`${operation.name}?${parameter.name}=${value}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    }
    expect(faults).toEqual([]);
    // The five resources' lists alone document more than forty (paging, sort, filters).
    expect(checked).toBeGreaterThan(40);
  });
});
