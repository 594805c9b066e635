import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { signedOutFormToken } from '../support/dashboard-form.js';

/**
 * The password-hashing flood (issue 21, point 3): 40 sign-ins at once from one address, each with an unknown
 * email (each would run scrypt). The gate refuses most of them with 429 at once, and a sign-in from another
 * address goes through. Bounded: about 40 requests and a handful of hashes. The timings are printed for the
 * record (docs/reliability.md), never asserted.
 */
describe('a flood of sign-ins with unknown emails from one address', () => {
  const PASSWORD = 'a long enough password';
  let sut: TestApp;
  let form: { token: string; cookie: string };

  const signIn = (client: string, email: string) =>
    request(sut.app.getHttpServer())
      .post('/dashboard/sign-in')
      .set('X-Forwarded-For', client)
      .set('Cookie', form.cookie)
      .type('form')
      .send({ _csrf: form.token, email, password: PASSWORD });

  beforeAll(async () => {
    sut = await createTestApp({ config: { TRUST_PROXY_HOPS: 1 } });
    form = await signedOutFormToken(sut);
    const { token } = form;
    await request(sut.app.getHttpServer())
      .post('/dashboard/sign-up')
      .set('X-Forwarded-For', '198.51.100.20')
      .set('Cookie', form.cookie)
      .type('form')
      .send({ _csrf: token, teamName: 'Flood Lettings', email: 'owner@flood-lettings.co.uk', password: PASSWORD })
      .expect(303);
  });
  afterAll(() => sut.close());

  it('answers the flood 429 (with Retry-After) beyond the address’s share, and lets another address sign in', async () => {
    const quietStart = performance.now();
    await signIn('198.51.100.20', 'owner@flood-lettings.co.uk').expect(303);
    const quietMs = performance.now() - quietStart;

    const flood = Array.from({ length: 40 }, (_, n) => signIn('203.0.113.7', `nobody${n}@flood.example`));
    const legitimateStart = performance.now();
    const legitimate = signIn('198.51.100.20', 'owner@flood-lettings.co.uk').then((response) => ({
      response,
      ms: performance.now() - legitimateStart,
    }));
    const answers = await Promise.all(flood);
    const { response, ms } = await legitimate;

    expect(response.status).toBe(303);
    expect(answers.map((answer) => answer.status).filter((status) => status !== 401 && status !== 429)).toEqual([]);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer.headers['retry-after']).toBe('1');
    console.info(
      `sign-in alone ${quietMs.toFixed(0)} ms; under a flood of 40 from another address ${ms.toFixed(0)} ms; ` +
        `flood answered ${refused.length} × 429, ${answers.length - refused.length} × 401`,
    );
  });
});
