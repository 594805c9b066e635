import { stringify } from 'csv-stringify/sync';
import { csvCellOf } from '@app/common';
import { IMPORT_RESOURCES, importTargetOf } from './import-resources.js';

/** The resource Swagger UI's `resource` select starts on: the enum's first value, the first importable resource. */
export const IMPORT_EXAMPLE_RESOURCE = IMPORT_RESOURCES[0];

/**
 * A CSV of two rows of the resource's example record, each under an external id of its own (`SUP-0187-IMPORT-1`), so
 * they create records beside the demo team's rather than update it (and update their own when posted again). List
 * fields are `;`-separated (an item's own `;` or `\` escaped) and nested ones JSON, as an import reads them; `null`
 * is an empty cell.
 */
function exampleCsvOf(example: Record<string, unknown>): string {
  const columns = Object.keys(example);
  const rows = [1, 2].map((n) =>
    columns.map((column) => {
      const value = example[column];
      if (column === 'externalRef' && typeof value === 'string') return `${value}-IMPORT-${n}`;
      const list = Array.isArray(value) && value.every((item) => typeof item === 'string');
      return csvCellOf(value, list ? 'list' : 'text');
    }),
  );
  return stringify([columns, ...rows]);
}

/**
 * What Swagger UI pre-fills `POST /v1/imports` with: rows of `IMPORT_EXAMPLE_RESOURCE`, made from the same
 * registration entry, so the CSV is always for the resource the select starts on (test/openapi-examples.e2e-spec.ts
 * posts it to the parameter's example).
 */
export const IMPORT_EXAMPLE_CSV = exampleCsvOf(importTargetOf(IMPORT_EXAMPLE_RESOURCE).example);

/** The same two rows as NDJSON: one POST body a line. */
export const IMPORT_EXAMPLE_NDJSON = [1, 2]
  .map((n) => {
    const example = importTargetOf(IMPORT_EXAMPLE_RESOURCE).example;
    const ref = example.externalRef;
    return JSON.stringify(typeof ref === 'string' ? { ...example, externalRef: `${ref}-IMPORT-${n}` } : example);
  })
  .join('\n')
  .concat('\n');
