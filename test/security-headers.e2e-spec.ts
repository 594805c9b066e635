import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, type TestApp } from './support/test-app.js';

// Browser-facing pages carry Helmet's headers: a Content-Security-Policy of this origin only, no framing, no
// sniffing (reliability issue, defect 7). The browser suite loads the dashboard under this policy too.

describe('security headers on the HTML pages', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  const get = (path: string) => request(sut.app.getHttpServer()).get(path);

  it.each(['/dashboard/sign-in', '/dashboard/assets/dashboard.js'])(
    '%s: a strict policy without inline script or style',
    async (path) => {
      const response = await get(path).expect(200);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain("style-src 'self';");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('upgrade-insecure-requests');
      expect(response.headers).toMatchObject({
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
    },
  );

  it('/docs: Swagger UI runs its own script files, with inline styles only', async () => {
    const response = await get('/docs').expect(200);
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // Swagger UI's page loads its scripts from files, which the policy allows: no inline script to be blocked.
    expect(response.text).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});

describe('requests the HTTP parser refuses', () => {
  let sut: TestApp;
  let port: number;
  beforeAll(async () => {
    sut = await createTestApp();
    await sut.app.listen(0, '127.0.0.1');
    port = (sut.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => sut.close());

  function raw(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('answers a malformed request line with 400 {error}', async () => {
    const answer = await raw('GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Type: application/json');
    expect(answer.split('\r\n\r\n')[1]).toBe('{"error":"Malformed HTTP request"}');
  });

  it('answers a header with a forbidden character with 400 {error}', async () => {
    const answer = await raw('GET /v1/units HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
    expect(answer.split('\r\n\r\n')[1]).toBe('{"error":"Malformed HTTP request"}');
  });

  it('answers oversized headers with 431 {error}', async () => {
    const answer = await raw(`GET /v1/units HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.split('\r\n\r\n')[1]).toBe('{"error":"Request headers are too large"}');
  });
});
