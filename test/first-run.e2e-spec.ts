import { afterAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '@app/common';
import { createDemoTeamIfEmpty, listen } from '../apps/api/src/core/start-up.js';
import { SAMPLE_COUNTS } from '../apps/api/src/sandbox/index.js';
import { captureLogs } from './support/log-lines.js';
import type { ReceivedResponse } from './support/openapi-conformance.js';
import { fetchedAnswer, servedConformance } from './support/service-process.js';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

// Start-up printed the demo key and password inside JSON log strings, and /health answered 200 before they were
// printed (issue 22). main.ts: listen → announce → createDemoTeamIfEmpty (terminal when stdout is a TTY) → open.

describe('first run', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const start = async (): Promise<TestApp> => {
    const app = await createTestApp();
    apps.push(app);
    return app;
  };

  it('binds the port but answers 503 "starting" (the probes too) until it is opened', async () => {
    const sut = await start();
    const open = await listen(sut.app, 0);
    const base = `http://127.0.0.1:${(sut.app.getHttpServer().address() as AddressInfo).port}`;
    const answers: Array<[string, ReceivedResponse]> = [];
    for (const path of ['/health', '/health/ready', '/v1', '/v1/work-orders']) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 503 });
      expect(response.headers.get('retry-after')).toBe('1');
      // What every answer carries, though no middleware ran.
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: 'The service is starting; retry in a moment' });
      answers.push([path, fetchedAnswer(response, text)]);
    }
    const testKey = await fetch(`${base}/v1`, {
      headers: { authorization: `Bearer ppk_test_${'a'.repeat(32)}`, 'x-request-id': 'lb-1234' },
    });
    expect(testKey.status).toBe(503);
    expect(testKey.headers.get('x-test-mode')).toBe('true');
    expect(testKey.headers.get('x-request-id')).toBe('lb-1234');
    open();
    // The document is served once open: the answers under /v1 while starting are ones it describes (the probes are
    // outside it).
    const conformance = await servedConformance(base);
    for (const [path, answer] of answers) conformance.assert('GET', path, answer);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
  });

  it('at a terminal, prints the key and the password as plain lines, and keeps them out of the JSON log', async () => {
    const sut = await start();
    const logs = captureLogs('info');
    let printed = '';
    // The test app's config logs nothing; the service's default level is info.
    const config = Object.assign(Object.create(AppConfig.prototype) as AppConfig, sut.app.get(AppConfig), {
      LOG_LEVEL: 'info',
    });
    await createDemoTeamIfEmpty(sut.app, config, logs.logger, {
      write: (text: string) => (printed += text),
    });
    const key = /^ {2}API key +(ppk_[0-9A-Za-z]{32,})$/m.exec(printed)?.[1];
    const password = /^ {2}Password +(\S+)$/m.exec(printed)?.[1];
    expect(key).toBeDefined();
    expect(password).toBeDefined();
    expect(printed).toMatch(/^ {2}Email +demo@example\.com$/m);
    expect(printed).toContain(`  export API_KEY=${key}`);
    expect(printed).not.toContain('{');
    // The log says what happened, without the secrets.
    expect(logs.lines.map((line) => line.msg)).toEqual([expect.stringContaining('printed above, on the terminal')]);
    expect(logs.text()).not.toContain(key);
    expect(logs.text()).not.toContain(password);
    // The printed key is the demo team's working key.
    await sut
      .http()
      .get('/v1/units')
      .set(...bearer(key ?? ''))
      .expect(200);
    // And a test key whose sandbox holds the sample portfolio (docs/test-mode.md).
    const testKey = /^ {2}Test key +(ppk_test_[0-9A-Za-z]{32,})\b/m.exec(printed)?.[1];
    expect(testKey).toBeDefined();
    expect(printed).toContain(`Bearer ${testKey}`);
    expect(logs.text()).not.toContain(testKey);
    const sample = await sut
      .http()
      .get('/v1/work-orders?pageSize=1')
      .set(...bearer(testKey ?? ''));
    expect(sample.status).toBe(200);
    expect(sample.headers['x-test-mode']).toBe('true');
    expect((sample.body as { pagination: { total: number } }).pagination.total).toBe(SAMPLE_COUNTS.workOrders);
  });

  it('piped (no terminal), writes them as JSON log lines', async () => {
    const sut = await start();
    const logs = captureLogs('info');
    await createDemoTeamIfEmpty(sut.app, sut.app.get(AppConfig), logs.logger);
    expect(logs.text()).toMatch(/API key ppk_[0-9A-Za-z]{32,}/);
    expect(logs.text()).toMatch(/test key \(test mode[^"]*\): ppk_test_[0-9A-Za-z]{32,}/);
    expect(logs.lines).toHaveLength(3);
  });
});
