// The example contractor: what Swagger UI pre-fills `POST /v1/contractors` with (`body`), and the demo team's
// contractor of this `id`. Plain data that imports no code (see units/unit.example.ts).

const certification = { type: 'Gas Safe', registrationNumber: '584213', expiryDate: '2027-03-31T00:00:00.000Z' };
const insurance = { type: 'Public liability', amount: 5_000_000, expiryDate: '2027-06-30T00:00:00.000Z' };

const body = {
  externalRef: 'SUP-0187',
  companyName: 'Brightwater Plumbing Ltd',
  contactName: 'Daniel Price',
  email: 'bookings@brightwater.example.com',
  phoneNumber: '0117 496 0732',
  fullAddress: 'Unit 7, St Philips Trading Estate, Bristol BS2 0JZ',
  status: 'active' as const,
  trades: ['plumbing', 'heating'],
  coveragePostcodes: ['BS1', 'BS2', 'BS6', 'BS8'],
  certifications: [certification],
  insurance: [insurance],
  notes: 'Emergency call-outs around the clock; two working days’ notice for routine jobs.',
};

export const CONTRACTOR_EXAMPLE = {
  id: 'a4e6c8f0-2b4d-4f6a-8c0e-1d3f5b7a9c2e',
  body,
  ...body,
  certification,
  insurance,
  completedJobs: 12,
};
