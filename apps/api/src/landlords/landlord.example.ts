// The example landlord: what Swagger UI pre-fills `POST /v1/landlords` with (`body`), and the demo team's
// landlord of this `id`. Plain data that imports no code (see units/unit.example.ts).

const body = {
  externalRef: 'LL-1042',
  name: 'Eleanor Whitfield',
  email: 'eleanor.whitfield@example.com',
  phoneNumber: '07700 900461',
  fullAddress: '3 Royal York Crescent, Clifton, Bristol BS8 4JX',
  status: 'active' as const,
  notes: 'Prefers email. Repairs over £500 need her approval first.',
};

export const LANDLORD_EXAMPLE = { id: 'e2c4a6b8-0d1f-4b3d-8f5a-9c1e3a5b7d9f', body, ...body };
