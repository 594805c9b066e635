import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, type TestApp } from '../support/test-app.js';
import type { Team } from './contractors.js';

// Generic response checks are shared with the other resources' tests.
export { emailOfLength, expectError, expectFieldError, ISO_WITH_MS, text, UUID, type Team } from './contractors.js';

/** A unit as the API returns it. */
export interface UnitBody {
  id: string;
  teamId: string;
  fullAddress: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  county: string | null;
  country: string;
  postcode: string;
  area: string | null;
  tenantUnits: { id: string; tenant: { id: string; firstName: string; lastName: string; email: string | null } }[];
  createdAt: string;
  updatedAt: string;
}

export const UNIT_KEYS = [
  'id',
  'teamId',
  'fullAddress',
  'addressLine1',
  'addressLine2',
  'city',
  'county',
  'country',
  'postcode',
  'area',
  'tenantUnits',
  'createdAt',
  'updatedAt',
];

/** Every input field with its maximum length; `required` ones must be present and non-empty. */
export const UNIT_FIELDS = [
  { field: 'addressLine1', max: 260, required: true },
  { field: 'addressLine2', max: 260, required: false },
  { field: 'city', max: 160, required: true },
  { field: 'county', max: 160, required: false },
  { field: 'country', max: 160, required: true },
  { field: 'postcode', max: 80, required: true },
  { field: 'area', max: 160, required: false },
] as const;

/** A well-formed UUID that no record has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let sequence = 0;

/** A minimal valid create body; each call gets a different first line so searches can tell units apart. */
export function unitInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    addressLine1: `${sequence} Mill Lane`,
    city: 'Leeds',
    postcode: 'LS1 4AP',
    country: 'United Kingdom',
    ...overrides,
  };
}

export function postUnit(sut: TestApp, team: Team, body: unknown): Promise<Response> {
  return sut
    .http()
    .post('/v1/units')
    .set(...bearer(team))
    .send(body as object);
}

export function putUnit(sut: TestApp, team: Team, id: string, body: unknown): Promise<Response> {
  return sut
    .http()
    .put(`/v1/units/${id}`)
    .set(...bearer(team))
    .send(body as object);
}

export function getUnit(sut: TestApp, team: Team, id: string): Promise<Response> {
  return sut
    .http()
    .get(`/v1/units/${id}`)
    .set(...bearer(team));
}

export function listUnits(sut: TestApp, team: Team, query: Record<string, string | number> = {}): Promise<Response> {
  return sut
    .http()
    .get('/v1/units')
    .query(query)
    .set(...bearer(team));
}

/** Creates a unit through the API and returns it as the API answered. */
export async function createUnit(sut: TestApp, team: Team, overrides: Record<string, unknown> = {}): Promise<UnitBody> {
  const response = await postUnit(sut, team, unitInput(overrides));
  expect(response.status).toBe(201);
  return response.body.data as UnitBody;
}

/** The ids of one page of a list response, in order. */
export function idsOf(response: Response): string[] {
  expect(response.status).toBe(200);
  return (response.body.data as { id: string }[]).map((record) => record.id);
}
