// What every record's schema shares in its examples; each resource's own example data lives beside it in the app
// (`apps/api/src/<resource>/<name>.example.ts`). Swagger UI builds its "Try it out" request bodies from the
// schemas' examples, so each value satisfies its field's validator (test/openapi-examples.e2e-spec.ts sends them).

export const EXAMPLES = {
  teamId: '0b8e4f6a-2c1d-4e3f-9a5b-7c6d8e9f0a1b',
  createdAt: '2026-11-21T09:14:03.512Z',
  updatedAt: '2026-11-23T16:40:27.088Z',
};
