// The example tenant: what Swagger UI pre-fills `POST /v1/tenants` with (`body`), and the demo team's tenant of
// this `id`. Plain data that imports no code (see units/unit.example.ts). Phone numbers come from Ofcom's ranges
// reserved for drama; emails use the reserved example.com domain.

const body = {
  externalRef: 'TEN-5520',
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira.khan@example.com',
  phoneNumber: '07700 900123',
  notes: 'Works nights: visits after 2 pm, please.',
  /** No links as shown: a team without the demo records has no unit of this id. */
  unitIds: [] as string[],
};

export const TENANT_EXAMPLE = { id: '3d9a7c5e-1f2b-4a6c-8e0d-5b7f9a1c3e5d', body, ...body };
