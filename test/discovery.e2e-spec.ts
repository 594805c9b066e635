import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApp, type TestApp } from './support/test-app.js';

// The base URL the start-up prints (http://localhost:3000/v1) answered 404, and so did `/` (issue 22).

interface Discovery {
  data: { name: string; version: string; links: Record<string, string> };
}

describe('GET /v1: where everything is', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('answers without a key: the version and links to the document, Swagger UI, the dashboard and the probes', async () => {
    const response = await sut.http().get('/v1').expect(200);
    const { data } = response.body as Discovery;
    expect(data.version).toBe('1.0.0');
    expect(data.name).toBe('Property Portfolio API');
    const host = `http://${String(response.request.url && new URL(response.request.url).host)}`;
    expect(data.links).toEqual({
      openapi: `${host}/v1/openapi.json`,
      docs: `${host}/docs`,
      dashboard: `${host}/dashboard`,
      health: `${host}/health`,
      ready: `${host}/health/ready`,
    });
    // Every link answers.
    const server = sut.app.getHttpServer();
    for (const link of Object.values(data.links)) {
      const { status } = await request(server).get(new URL(link).pathname).redirects(1);
      expect({ link, status }).toEqual({ link, status: 200 });
    }
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('sends `/` there', async () => {
    const response = await request(sut.app.getHttpServer()).get('/').expect(302);
    expect(response.headers.location).toBe('/v1');
  });

  it('is in the OpenAPI document, and its version is the document’s', async () => {
    const document = (await sut.http().get('/v1/openapi.json').expect(200)).body as {
      info: { version: string };
      paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, unknown> } }>;
    };
    expect(document.paths['/v1']?.get?.responses['200']).toBeDefined();
    expect(document.info.version).toBe('1.0.0');
  });
});

describe('GET /v1 with PUBLIC_URL', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ config: { PUBLIC_URL: 'https://api.example.com/' } });
  });
  afterAll(() => sut.close());

  it('links under the public URL', async () => {
    const { data } = (await sut.http().get('/v1').expect(200)).body as Discovery;
    expect(data.links.openapi).toBe('https://api.example.com/v1/openapi.json');
    expect(data.links.ready).toBe('https://api.example.com/health/ready');
  });
});
