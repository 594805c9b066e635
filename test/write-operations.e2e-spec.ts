import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openApiDocumentOf } from '../apps/api/src/core/configure-app.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Every keyed write (POST, PUT, DELETE) honours Idempotency-Key and records its event: the decorator that
// documents the header also puts the interceptors on the route (libs/common/src/openapi/api-operations.ts). So a
// write added without it shows here, as an operation of the served document that does not document the header.

interface Operation {
  parameters?: Array<{ $ref?: string; name?: string; in?: string }>;
  security?: unknown[];
}

describe('write operations', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('every POST, PUT and DELETE that needs a key documents (and so honours) Idempotency-Key', () => {
    const doc = openApiDocumentOf(sut.app) as unknown as {
      paths: Record<string, Record<string, Operation>>;
      security?: unknown[];
      components: { parameters?: Record<string, { name: string; in: string }> };
    };
    const writes: string[] = [];
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['post', 'put', 'delete']) {
        const operation = item[method];
        if (!operation || (operation.security ?? doc.security ?? []).length === 0) continue;
        writes.push(`${method.toUpperCase()} ${path}`);
        const headers = (operation.parameters ?? []).map((parameter) =>
          parameter.$ref ? doc.components.parameters?.[parameter.$ref.split('/').pop() ?? ''] : parameter,
        );
        if (!headers.some((header) => header?.in === 'header' && header.name === 'Idempotency-Key')) {
          missing.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(writes.length).toBeGreaterThanOrEqual(21);
    expect(missing).toEqual([]);
  });

  it('a one-record read carries its ETag; a list, which goes through no interceptor either, carries none', async () => {
    const team = await sut.createTeam();
    const created = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .set('Idempotency-Key', 'write-operations-1')
      .send({ name: 'Etta Marsh' })
      .expect(201);
    const etag = created.headers.etag;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(created.headers['idempotent-replayed']).toBe('false');
    const id = (created.body as { data: { id: string } }).data.id;
    const read = await sut
      .http()
      .get(`/v1/landlords/${id}`)
      .set(...bearer(team))
      .expect(200);
    expect(read.headers.etag).toBe(etag);
    await sut
      .http()
      .get(`/v1/landlords/${id}`)
      .set(...bearer(team))
      .set('If-None-Match', etag)
      .expect(304);
    const list = await sut
      .http()
      .get('/v1/landlords')
      .set(...bearer(team))
      .expect(200);
    expect(list.headers.etag).toBeUndefined();
    // The event of the write was recorded (the events interceptor is on the write).
    const events = await sut
      .http()
      .get('/v1/events')
      .set(...bearer(team))
      .expect(200);
    expect((events.body as { data: Array<{ type: string }> }).data.map((event) => event.type)).toEqual([
      'landlord.created',
    ]);
  });
});
