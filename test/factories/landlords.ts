import { countTeamRows, resourceApi } from '../support/resource-api.js';
import type { Team, TestApp } from '../support/test-app.js';

/** A landlord as the API returns it. */
export interface LandlordBody {
  id: string;
  teamId: string;
  externalRef: string | null;
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
  'externalRef',
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

const landlords = resourceApi<LandlordBody>('/v1/landlords');
export const postLandlord = landlords.post;
export const putLandlord = landlords.put;
export const getLandlord = landlords.get;
export const listLandlords = landlords.list;

/** Creates a landlord through the API and returns it as answered. */
export const createLandlord = (
  sut: TestApp,
  team: Team,
  overrides: Record<string, unknown> = {},
): Promise<LandlordBody> => landlords.create(sut, team, landlordInput(overrides));

export const countLandlords = (sut: TestApp, teamId: string): Promise<number> =>
  countTeamRows(sut, 'landlords', teamId);
