import { countTeamRows, resourceApi } from '../support/resource-api.js';
import type { Team, TestApp } from '../support/test-app.js';

/** The body of a contractor as the API returns it; nested items keep `unknown` values to be asserted on. */
export interface ContractorBody {
  id: string;
  teamId: string;
  externalRef: string | null;
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
  'externalRef',
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

const contractors = resourceApi<ContractorBody>('/v1/contractors');
export const postContractor = contractors.post;
export const putContractor = contractors.put;
export const getContractor = contractors.get;
export const listContractors = contractors.list;

/** Creates a contractor through the API and returns it as answered. */
export const createContractor = (
  sut: TestApp,
  team: Team,
  overrides: Record<string, unknown> = {},
): Promise<ContractorBody> => contractors.create(sut, team, contractorInput(overrides));

export const countContractors = (sut: TestApp, teamId: string): Promise<number> =>
  countTeamRows(sut, 'contractors', teamId);
