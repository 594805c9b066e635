/** The example id of a tenant–unit link, the same seen from either side. Plain data (see units/unit.example.ts). */
export const TENANCY_EXAMPLE_ID = 'c7b5a3e1-9d8f-4c6b-a2e0-4f6d8b0a2c4e';
