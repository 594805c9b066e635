import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bearer, createTestApp, type TestApp } from './support/test-app.js';

describe('smoke', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  it('creates and reads a contractor', async () => {
    const team = await sut.createTeam();
    const created = await sut
      .http()
      .post('/v1/contractors')
      .set(...bearer(team))
      .send({ companyName: 'A', contactName: 'B' });
    expect(created.status).toBe(201);
    const read = await sut
      .http()
      .get(`/v1/contractors/${created.body.data.id}`)
      .set(...bearer(team));
    expect(read.body.data.companyName).toBe('A');
  });
});
