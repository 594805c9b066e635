// One small, consistent portfolio that every schema's `example`s come from. Swagger UI builds its "Try it out"
// request bodies from these examples, so each value satisfies its field's validator and a pre-filled body is
// accepted as it stands (test/openapi-examples.e2e-spec.ts sends them). The sample answers agree with each other:
// the work order is at the example unit, reported by the example tenant, assigned to the example contractor.
// Phone numbers come from Ofcom's ranges reserved for drama; emails use the reserved example.com domain.

const TEAM_ID = '0b8e4f6a-2c1d-4e3f-9a5b-7c6d8e9f0a1b';
const CREATED_AT = '2026-11-21T09:14:03.512Z';
const UPDATED_AT = '2026-11-23T16:40:27.088Z';

const UNIT = {
  id: '6f1c2a9e-3b4d-4e8f-9a1b-2c3d4e5f6a7b',
  addressLine1: 'Flat 2',
  addressLine2: '14 Elm Grove',
  area: 'Redland',
  city: 'Bristol',
  county: null,
  postcode: 'BS6 6AH',
  country: 'United Kingdom',
  fullAddress: 'Flat 2, 14 Elm Grove, Redland, Bristol, BS6 6AH, United Kingdom',
};

const TENANT = {
  id: '3d9a7c5e-1f2b-4a6c-8e0d-5b7f9a1c3e5d',
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira.khan@example.com',
  phoneNumber: '07700 900123',
  notes: 'Works nights: visits after 2 pm, please.',
};

const CONTRACTOR = {
  id: 'a4e6c8f0-2b4d-4f6a-8c0e-1d3f5b7a9c2e',
  companyName: 'Brightwater Plumbing Ltd',
  contactName: 'Daniel Price',
  email: 'bookings@brightwater.example.com',
  phoneNumber: '0117 496 0732',
  fullAddress: 'Unit 7, St Philips Trading Estate, Bristol BS2 0JZ',
  trades: ['plumbing', 'heating'],
  coveragePostcodes: ['BS1', 'BS2', 'BS6', 'BS8'],
  certification: { type: 'Gas Safe', registrationNumber: '584213', expiryDate: '2027-03-31T00:00:00.000Z' },
  insurance: { type: 'Public liability', amount: 5_000_000, expiryDate: '2027-06-30T00:00:00.000Z' },
  notes: 'Emergency call-outs around the clock; two working days’ notice for routine jobs.',
  completedJobs: 12,
};

export const EXAMPLES = {
  teamId: TEAM_ID,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  unit: UNIT,
  tenant: TENANT,
  /** The id of a tenant–unit link, the same seen from either side. */
  tenancyId: 'c7b5a3e1-9d8f-4c6b-a2e0-4f6d8b0a2c4e',
  contractor: CONTRACTOR,
  landlord: {
    id: 'e2c4a6b8-0d1f-4b3d-8f5a-9c1e3a5b7d9f',
    name: 'Eleanor Whitfield',
    email: 'eleanor.whitfield@example.com',
    phoneNumber: '07700 900461',
    fullAddress: '3 Royal York Crescent, Clifton, Bristol BS8 4JX',
    notes: 'Prefers email. Repairs over £500 need her approval first.',
  },
  workOrder: {
    id: '9b1d3f5a-7c9e-4b2d-8f4a-6c8e0a2b4d6f',
    code: 'WO-42',
    title: 'Leaking tap in kitchen',
    description:
      'The cold tap on the kitchen sink drips constantly, even when turned off fully; water is collecting in the cupboard underneath.',
    availability: 'Weekdays after 2 pm; Saturday mornings',
  },
};
