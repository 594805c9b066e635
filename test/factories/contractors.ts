import { expect } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, type TestApp } from '../support/test-app.js';

export interface Team {
  teamId: string;
  apiKey: string;
}

/** The body of a contractor as the API returns it; nested items keep `unknown` values to be asserted on. */
export interface ContractorBody {
  id: string;
  teamId: string;
  companyName: string;
  contactName: string;
  email: string | null;
  phoneNumber: string | null;
  fullAddress: string | null;
  status: string;
  trades: string[];
  coveragePostcodes: string[];
  certifications: Record<string, unknown>[];
  insurance: Record<string, unknown>[];
  notes: string | null;
  rating: number | null;
  completedJobs: number;
  createdAt: string;
  updatedAt: string;
}

export const CONTRACTOR_KEYS = [
  'id',
  'teamId',
  'companyName',
  'contactName',
  'email',
  'phoneNumber',
  'fullAddress',
  'status',
  'trades',
  'coveragePostcodes',
  'certifications',
  'insurance',
  'notes',
  'rating',
  'completedJobs',
  'createdAt',
  'updatedAt',
];

export const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sequence = 0;

/** A minimal valid create body; each call names a different company so searches can tell them apart. */
export function contractorInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return { companyName: `Company ${sequence}`, contactName: `Contact ${sequence}`, ...overrides };
}

/** A create body using every input field. */
export function fullContractorInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return contractorInput({
    email: 'office@brightsparks.example',
    phoneNumber: '+44 20 7946 0000',
    fullAddress: '1 High Street, London, SW1A 1AA',
    status: 'on_holiday',
    trades: ['electrician', 'plumbing'],
    coveragePostcodes: ['SW1A', 'E1'],
    certifications: [{ type: 'NICEIC', registrationNumber: 'N-123', expiryDate: '2027-01-31' }],
    insurance: [{ type: 'Public liability', amount: 2_000_000, expiryDate: '2027-06-30T12:00:00Z' }],
    notes: 'Prefers morning visits',
    ...overrides,
  });
}

export function postContractor(sut: TestApp, team: Team, body: unknown): Promise<Response> {
  return sut
    .http()
    .post('/v1/contractors')
    .set(...bearer(team))
    .send(body as object);
}

export function putContractor(sut: TestApp, team: Team, id: string, body: unknown): Promise<Response> {
  return sut
    .http()
    .put(`/v1/contractors/${id}`)
    .set(...bearer(team))
    .send(body as object);
}

export function getContractor(sut: TestApp, team: Team, id: string): Promise<Response> {
  return sut
    .http()
    .get(`/v1/contractors/${id}`)
    .set(...bearer(team));
}

export function listContractors(
  sut: TestApp,
  team: Team,
  query: Record<string, string | number> = {},
): Promise<Response> {
  return sut
    .http()
    .get('/v1/contractors')
    .query(query)
    .set(...bearer(team));
}

/** Creates a contractor through the API and returns it as read back. */
export async function createContractor(
  sut: TestApp,
  team: Team,
  overrides: Record<string, unknown> = {},
): Promise<ContractorBody> {
  const response = await postContractor(sut, team, contractorInput(overrides));
  expect(response.status).toBe(201);
  return response.body.data as ContractorBody;
}

export async function countContractors(sut: TestApp, teamId: string): Promise<number> {
  const [row] = await sut.sql<{ count: number }>('SELECT count(*)::int AS count FROM contractors WHERE team_id = $1', [
    teamId,
  ]);
  return row.count;
}

/** Exactly `{error}` with the given status; returns the text for further checks. */
export function expectError(response: Response, status: number): string {
  expect({ status: response.status, keys: Object.keys(response.body as object) }).toEqual({ status, keys: ['error'] });
  const { error } = response.body as { error: unknown };
  expect(typeof error).toBe('string');
  return error as string;
}

/** A 400 whose text starts by naming `field` (nested fields by path, e.g. `certifications.0.type`). */
export function expectFieldError(response: Response, field: string): string {
  const error = expectError(response, 400);
  const named = [`${field} `, `${field}: `, `${field}.`, `property ${field} `].some((prefix) =>
    error.startsWith(prefix),
  );
  expect({ named, error }).toEqual({ named: true, error });
  return error;
}

export const text = (length: number, char = 'x'): string => char.repeat(length);

/** An address of exactly `length` characters (64 local + domain of 63-character labels), valid for IsEmail. */
export function emailOfLength(length: number): string {
  const local = 'a'.repeat(64);
  let domainBody = length - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (domainBody > 0) {
    const label = Math.min(63, domainBody);
    labels.push('b'.repeat(label));
    domainBody -= label + 1;
  }
  const email = `${local}@${labels.join('.')}.com`;
  if (email.length !== length) throw new Error(`cannot build an email of ${length} characters`);
  return email;
}
