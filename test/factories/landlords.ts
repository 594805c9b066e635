import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, type TestApp } from '../support/test-app.js';
import type { Team } from './contractors.js';

// Resource-neutral assertions live with the contractors factory for now; re-exported so the spec has one import
// to repoint when they move to a shared test module.
export { emailOfLength, expectError, expectFieldError, ISO_WITH_MS, text, UUID, type Team } from './contractors.js';

/** A landlord as the API returns it. */
export interface LandlordBody {
  id: string;
  teamId: string;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  fullAddress: string | null;
  status: string;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

export const LANDLORD_KEYS = [
  'id',
  'teamId',
  'name',
  'email',
  'phoneNumber',
  'fullAddress',
  'status',
  'notes',
  'createdAt',
  'updatedAt',
];

let sequence = 0;

/** A minimal valid create body; each call names a different landlord so searches can tell them apart. */
export function landlordInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return { name: `Landlord ${sequence}`, ...overrides };
}

/** A create body using every input field. */
export function fullLandlordInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return landlordInput({
    email: 'owner@harbourestates.example',
    phoneNumber: '+44 20 7946 0101',
    fullAddress: '12 Quay Road, Bristol, BS1 4DJ',
    status: 'inactive',
    notes: 'Wants quarterly statements',
    ...overrides,
  });
}

export function postLandlord(sut: TestApp, team: Team, body: unknown): Promise<Response> {
  return sut
    .http()
    .post('/v1/landlords')
    .set(...bearer(team))
    .send(body as object);
}

export function putLandlord(sut: TestApp, team: Team, id: string, body: unknown): Promise<Response> {
  return sut
    .http()
    .put(`/v1/landlords/${id}`)
    .set(...bearer(team))
    .send(body as object);
}

export function getLandlord(sut: TestApp, team: Team, id: string): Promise<Response> {
  return sut
    .http()
    .get(`/v1/landlords/${id}`)
    .set(...bearer(team));
}

export function listLandlords(
  sut: TestApp,
  team: Team,
  query: Record<string, string | number> = {},
): Promise<Response> {
  return sut
    .http()
    .get('/v1/landlords')
    .query(query)
    .set(...bearer(team));
}

/** Creates a landlord through the API and returns it as answered. */
export async function createLandlord(
  sut: TestApp,
  team: Team,
  overrides: Record<string, unknown> = {},
): Promise<LandlordBody> {
  const response = await postLandlord(sut, team, landlordInput(overrides));
  expect(response.status).toBe(201);
  return response.body.data as LandlordBody;
}

/** The ids of a list answer, in order, after checking it succeeded. */
export function idsOf(response: Response): string[] {
  expect(response.status).toBe(200);
  return (response.body.data as LandlordBody[]).map((landlord) => landlord.id);
}

export async function countLandlords(sut: TestApp, teamId: string): Promise<number> {
  const [row] = await sut.sql<{ count: number }>('SELECT count(*)::int AS count FROM landlords WHERE team_id = $1', [
    teamId,
  ]);
  return row.count;
}
