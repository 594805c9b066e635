import { resourceApi } from '../support/resource-api.js';
import type { Team, TestApp } from '../support/test-app.js';

/** A unit as the API returns it. */
export interface UnitBody {
  id: string;
  teamId: string;
  externalRef: string | null;
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
  'externalRef',
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

const units = resourceApi<UnitBody>('/v1/units');
export const postUnit = units.post;
export const putUnit = units.put;
export const getUnit = units.get;
export const listUnits = units.list;

/** Creates a unit through the API and returns it as the API answered. */
export const createUnit = (sut: TestApp, team: Team, overrides: Record<string, unknown> = {}): Promise<UnitBody> =>
  units.create(sut, team, unitInput(overrides));
