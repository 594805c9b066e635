import request from 'supertest';
import type { TestApp } from './test-app.js';

/** A signed-out form's token: the `ppa_form` cookie the sign-in page sets, and the `_csrf` field signed for it. */
export async function signedOutFormToken(sut: TestApp): Promise<{ token: string; cookie: string }> {
  const page = await request(sut.app.getHttpServer()).get('/dashboard/sign-in').expect(200);
  const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const cookie = ([] as string[])
    .concat(page.headers['set-cookie'] ?? [])
    .find((line) => line.startsWith('ppa_form='))
    ?.split(';')[0];
  if (!token || !cookie) throw new Error('the sign-in page set no form token');
  return { token, cookie };
}
