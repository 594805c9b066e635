// The example unit of the OpenAPI document. Swagger UI pre-fills `POST /v1/units` with `body`, and the demo team
// that `npm start` creates on an empty database holds this unit under this `id` (docs/adding-a-resource.md), so
// the examples that refer to it (a work order's `unitId`, `GET /v1/units/{unitId}`) work as they stand there.
// Like every example file, it is plain data and imports no code: any feature may read it.

const body = {
  externalRef: 'PROP-2231',
  addressLine1: 'Flat 2',
  addressLine2: '14 Elm Grove',
  area: 'Redland',
  city: 'Bristol',
  county: null,
  postcode: 'BS6 6AH',
  country: 'United Kingdom',
};

export const UNIT_EXAMPLE = {
  id: '6f1c2a9e-3b4d-4e8f-9a1b-2c3d4e5f6a7b',
  body,
  ...body,
  fullAddress: 'Flat 2, 14 Elm Grove, Redland, Bristol, BS6 6AH, United Kingdom',
};
