import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Malformed dashboard forms, over every POST route the dashboard registers (read from the router, so a new
 * route is probed without a line here — but it must be given its fields below, or this fails): no body, an
 * empty form, a JSON body, a text/plain body, and each field with a NUL byte or another control character,
 * all with a valid session and valid tokens so they get as far as they can. Never a 5xx; a control character
 * or an unreadable form is a 400.
 */

const PASSWORD = 'a long enough password';

/** Each route's form fields, as the dashboard's own pages fill them (`_csrf` is added). */
const FORMS: Record<string, Record<string, string>> = {
  '/dashboard/sign-up': { teamName: 'Probe Lettings', email: 'probe2@example.com', password: PASSWORD },
  '/dashboard/sign-in': { email: 'probe@example.com', password: PASSWORD },
  '/dashboard/sign-out': {},
  '/dashboard/keys': { name: 'Probe key', access: 'read_only', expires: '2099-01-31' },
  '/dashboard/keys/:id/revoke': {},
  '/dashboard/keys/:id/roll': { grace: '1h' },
  '/dashboard/webhooks': { url: 'http://127.0.0.1:9/hook', description: 'Probe', types: 'work_order.created' },
  '/dashboard/webhooks/:id': { url: 'http://127.0.0.1:9/hook', description: 'Probe', types: 'work_order.created' },
  '/dashboard/webhooks/:id/rotate-secret': {},
  '/dashboard/webhooks/:id/:action': {},
  '/dashboard/webhooks/:id/deliveries/:deliveryId/retry': {},
  '/dashboard/test-mode': { testMode: 'on', back: 'keys' },
  '/dashboard/sandbox/reset': { sampleData: 'yes' },
};

const CONTROL_CHARACTERS = ['\u0000', '\u001b', '\u007f'];

function csrfOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no CSRF field on the page');
  return token;
}

/** The POST routes under /dashboard, as Express holds them. */
function dashboardPostRoutes(sut: TestApp): string[] {
  const express = sut.app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return (
    express.router.stack
      .flatMap((layer) => (layer.route ? [layer.route] : []))
      .filter((route) => route.path.startsWith('/dashboard') && route.methods.post)
      .map((route) => route.path)
      // Not handlers: the middleware mounts Nest registers for the dashboard prefix (POST there answers 404).
      .filter((path) => path !== '/dashboard' && !path.includes('*'))
  );
}

describe('dashboard forms, malformed, on every POST route', () => {
  let sut: TestApp;
  let browser: TestAgent;
  let anonymous: TestAgent;
  const ids: Record<string, string> = { action: 'disable' };

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    browser = request.agent(sut.app.getHttpServer());
    anonymous = request.agent(sut.app.getHttpServer());
    const form = await browser.get('/dashboard/sign-up').expect(200);
    await browser
      .post('/dashboard/sign-up')
      .type('form')
      .send({ _csrf: csrfOf(form.text), teamName: 'Probe', email: 'probe@example.com', password: PASSWORD })
      .expect(303);
    // Sign-up starts no session (it answers every email alike): the account signs in.
    const signInForm = await browser.get('/dashboard/sign-in').expect(200);
    await browser
      .post('/dashboard/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(signInForm.text), email: 'probe@example.com', password: PASSWORD })
      .expect(303);
    const token = csrfOf((await browser.get('/dashboard/keys').expect(200)).text);
    await browser
      .post('/dashboard/keys')
      .type('form')
      .send({ _csrf: token, name: 'k', access: 'read_write' })
      .expect(303);
    await browser
      .post('/dashboard/webhooks')
      .type('form')
      .send({ _csrf: token, url: 'http://127.0.0.1:9/hook' })
      .expect(303);
    [{ id: ids.key }] = await sut.sql<{ id: string }>('SELECT id FROM api_keys');
    [{ id: ids.endpoint }] = await sut.sql<{ id: string }>('SELECT id FROM webhook_endpoints');
    await browser.post(`/dashboard/webhooks/${ids.endpoint}/test`).type('form').send({ _csrf: token }).expect(303);
    [{ id: ids.deliveryId }] = await sut.sql<{ id: string }>('SELECT id FROM webhook_deliveries');
  });
  afterAll(() => sut?.close());

  /** The route with real ids of the probe's team, and the agent (with its token) that posts its form. */
  async function target(route: string): Promise<{ path: string; agent: TestAgent; csrf: string }> {
    const path = route
      .replace(':id', route.startsWith('/dashboard/keys') ? ids.key : ids.endpoint)
      .replace(/:(\w+)/g, (_, name: string) => ids[name]);
    const signedOut = route === '/dashboard/sign-in' || route === '/dashboard/sign-up';
    const agent = signedOut ? anonymous : browser;
    const page = await agent.get(signedOut ? route : '/dashboard/keys').expect(200);
    return { path, agent, csrf: csrfOf(page.text) };
  }

  it('knows the fields of every dashboard POST route', () => {
    expect(dashboardPostRoutes(sut).sort()).toEqual(Object.keys(FORMS).sort());
  });

  it('never answers 5xx: no body, an empty form, JSON or text/plain (400), a control character in any field (400)', async () => {
    const answers: Array<{ route: string; probe: string; status: number }> = [];
    for (const route of dashboardPostRoutes(sut)) {
      const { path, agent, csrf } = await target(route);
      const fields: Record<string, string> = { ...FORMS[route], _csrf: csrf };
      const probes: Array<[string, () => Promise<request.Response>]> = [
        ['no body', () => agent.post(path)],
        ['empty form', () => agent.post(path).type('form').send('')],
        ['JSON', () => agent.post(path).set('Content-Type', 'application/json').send(JSON.stringify(fields))],
        [
          'text/plain',
          () => agent.post(path).set('Content-Type', 'text/plain').send(new URLSearchParams(fields).toString()),
        ],
      ];
      for (const [name, value] of Object.entries(fields)) {
        for (const control of CONTROL_CHARACTERS) {
          const form = { ...fields, [name]: `${value.slice(0, 3)}${control}${value.slice(3)}` };
          probes.push([
            `${name} with U+${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
            () => agent.post(path).type('form').send(form),
          ]);
        }
      }
      for (const [probe, send] of probes) answers.push({ route, probe, status: (await send()).status });
    }
    expect(answers.filter((answer) => answer.status !== 400)).toEqual([]);
    // The probes changed nothing: the key, the endpoint and the session are still there.
    expect(await sut.sql('SELECT revoked_at FROM api_keys')).toEqual([{ revoked_at: null }]);
    expect(await sut.sql('SELECT enabled FROM webhook_endpoints')).toEqual([{ enabled: true }]);
    await browser.get('/dashboard/keys').expect(200);
  });
});
