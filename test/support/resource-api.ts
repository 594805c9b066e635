import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { getMetadataArgsStorage } from 'typeorm';
import { RESOURCES } from '../../apps/api/src/resources.js';
import { bearer, type Team, type TestApp } from './test-app.js';

export type ListQuery = Record<string, string | number>;

/** The calls every resource answers under its collection path, each made with the team's key. */
export interface ResourceApi<Body> {
  post: (sut: TestApp, team: Team, body: unknown) => Promise<Response>;
  put: (sut: TestApp, team: Team, id: string, body: unknown) => Promise<Response>;
  get: (sut: TestApp, team: Team, id: string) => Promise<Response>;
  list: (sut: TestApp, team: Team, query?: ListQuery) => Promise<Response>;
  remove: (sut: TestApp, team: Team, id: string) => Promise<Response>;
  /** Posts `body`, expects 201 and returns the record as the API answered it. */
  create: (sut: TestApp, team: Team, body: unknown) => Promise<Body>;
}

/** `path` is the collection, e.g. `/v1/units`. */
export function resourceApi<Body>(path: string): ResourceApi<Body> {
  const post = (sut: TestApp, team: Team, body: unknown): Promise<Response> =>
    sut
      .http()
      .post(path)
      .set(...bearer(team))
      .send(body as object);
  return {
    post,
    put: (sut, team, id, body) =>
      sut
        .http()
        .put(`${path}/${id}`)
        .set(...bearer(team))
        .send(body as object),
    get: (sut, team, id) =>
      sut
        .http()
        .get(`${path}/${id}`)
        .set(...bearer(team)),
    list: (sut, team, query = {}) =>
      sut
        .http()
        .get(path)
        .query(query)
        .set(...bearer(team)),
    remove: (sut, team, id) =>
      sut
        .http()
        .delete(`${path}/${id}`)
        .set(...bearer(team)),
    create: async (sut, team, body) => {
      const response = await post(sut, team, body);
      expect(response.status).toBe(201);
      return response.body.data as Body;
    },
  };
}

/** The tables of the registered resources (from their entities), so a generated resource's is one of them. */
export const RESOURCE_TABLES: string[] = RESOURCES.flatMap((resource) => resource.entities).flatMap(
  (entity) => getMetadataArgsStorage().tables.find((table) => table.target === entity)?.name ?? [],
);

/** How many rows of `table` (a registered resource's) the team has, read straight from the database. */
export async function countTeamRows(sut: TestApp, table: string, teamId: string): Promise<number> {
  expect(RESOURCE_TABLES).toContain(table);
  const [row] = await sut.sql<{ count: number }>(`SELECT count(*)::int AS count FROM ${table} WHERE team_id = $1`, [
    teamId,
  ]);
  return row.count;
}
