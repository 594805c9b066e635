import type { Type } from '@nestjs/common';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { CONDITIONAL_RESOURCE, csvCellKindOf, type CsvCellKind, type CsvFieldSchema } from '@app/common';

/**
 * The CSV columns of every resource (CONTRACT "Imports and exports"), derived from the registration list and the
 * OpenAPI document the app serves, so a resource added by `npm run generate:resource` has them with no code:
 *
 * - an export's columns are the fields of the resource's response (in its order, output-only ones included), then
 *   the fields of its POST body that the response lacks, so that an export imports back unchanged;
 * - a body field the response lacks is read from the record by the generic rule (`unitId` ← `unit.id` when the
 *   response has a `unit` object) or by the entry's `csv.derived` hook (a tenant's `unitIds` ← `tenantUnits`);
 * - an import's columns are the body's fields, the external-id twin of each reference (`unitId` → `unitExternalRef`,
 *   `unitIds` → `unitExternalRefs`) and the entry's `csv.importOnly` fields (a work order's `status`); every other
 *   response field is output-only, a column an import ignores.
 *
 * A cell's kind comes from the field's schema (`csvCellKindOf`, libs/common/src/csv/csv-cells.ts).
 */

/** A record as the API answers it (one item of a list's `data`). */
export type ResponseRecord = Record<string, unknown>;

/** What a registration entry may add to the derived columns (`Resource.csv` in resources.ts). */
export interface ResourceCsvHooks {
  /** The value of a POST body field the response lacks, read from the response (an export's column). */
  derived?: Record<string, (record: ResponseRecord) => unknown>;
  /** Response fields the import takes although the POST body does not (a work order's `status`). */
  importOnly?: string[];
}

/** One column of an export: its header, its cell kind and where its value comes from. */
export interface CsvColumn {
  name: string;
  kind: CsvCellKind;
  valueOf: (record: ResponseRecord) => unknown;
}

/** What an import reads: the columns it takes (by name, with their kind) and those it ignores (output-only). */
export interface ImportColumns {
  columns: Map<string, CsvCellKind>;
  ignored: Set<string>;
}

/** A resource's CSV: its name in paths and `?resource=` (`work-orders`), the export's and the import's columns. */
export interface ResourceCsv {
  resource: string;
  exportColumns: CsvColumn[];
  importColumns: ImportColumns;
}

/** The parts of the OpenAPI document read here. */
export interface CsvOpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

type Schema = CsvFieldSchema;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/components/schemas/X` (or `requestBodies/X`) in the document. */
function resolverOf(document: CsvOpenApiDocument): (ref: string) => Schema | undefined {
  return (ref) => {
    const [, , group, name] = ref.split('/');
    const found = (document.components?.[group] as Record<string, unknown> | undefined)?.[name];
    return isObject(found) ? found : undefined;
  };
}

function deref<T>(value: unknown, resolve: (ref: string) => unknown): T | undefined {
  let current = value;
  while (isObject(current) && typeof current.$ref === 'string') current = resolve(current.$ref);
  return current as T | undefined;
}

function propertiesOf(
  schema: Schema | undefined,
  resolve: (ref: string) => Schema | undefined,
): Record<string, Schema> {
  const resolved = deref<Schema>(schema, resolve);
  const composed = resolved?.allOf?.map((part) => propertiesOf(part, resolve)) ?? [];
  return Object.assign({}, ...composed, (resolved?.properties ?? {}) as Record<string, Schema>) as Record<
    string,
    Schema
  >;
}

/** The fields of one item of the list's `data`, and of the collection's POST body. */
function schemasOf(
  document: CsvOpenApiDocument,
  path: string,
): { response: Record<string, Schema>; body: Record<string, Schema> } {
  const resolve = resolverOf(document);
  const operations = document.paths[path] ?? {};
  const list = operations.get as { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
  const page = list?.responses?.['200']?.content?.['application/json']?.schema;
  const items = propertiesOf(page, resolve).data?.items;
  if (!items) throw new Error(`${path}: the document has no list of records (GET 200 {data: [...]})`);
  const post = operations.post as { requestBody?: unknown } | undefined;
  const requestBody = deref<{ content?: Record<string, { schema?: Schema }> }>(post?.requestBody, resolve);
  return {
    response: propertiesOf(items, resolve),
    body: propertiesOf(requestBody?.content?.['application/json']?.schema, resolve),
  };
}

/** A reference field (`unitId`, `unitIds`) and the name of its external-id twin (`unitExternalRef(s)`). */
function externalRefTwin(name: string, kind: CsvCellKind): string | undefined {
  const single = /^(.+)Id$/.exec(name);
  if (single && kind === 'text') return `${single[1]}ExternalRef`;
  const many = /^(.+)Ids$/.exec(name);
  if (many && kind === 'list') return `${many[1]}ExternalRefs`;
  return undefined;
}

/** The generic rule for a body field the response lacks: `unitId` is the `id` of the response's `unit` object. */
function linkedId(name: string, response: Record<string, Schema>): ((record: ResponseRecord) => unknown) | undefined {
  const single = /^(.+)Id$/.exec(name);
  if (!single || !(single[1] in response)) return undefined;
  const field = single[1];
  return (record) => {
    const linked = record[field];
    return isObject(linked) ? (linked.id ?? null) : null;
  };
}

/** The columns of the export of the collection at `path` (`/v1/units`): response fields, then body-only fields. */
export function csvColumnsOf(document: CsvOpenApiDocument, path: string, hooks: ResourceCsvHooks = {}): CsvColumn[] {
  const resolve = resolverOf(document);
  const { response, body } = schemasOf(document, path);
  const columns: CsvColumn[] = Object.entries(response).map(([name, schema]) => ({
    name,
    kind: csvCellKindOf(schema, resolve),
    valueOf: (record) => record[name],
  }));
  for (const [name, schema] of Object.entries(body)) {
    if (name in response) continue;
    const valueOf = hooks.derived?.[name] ?? linkedId(name, response);
    if (!valueOf) {
      throw new Error(
        `${path}: the POST body's ${name} is not in the response; give the resource's entry a csv.derived.${name}`,
      );
    }
    columns.push({ name, kind: csvCellKindOf(schema, resolve), valueOf });
  }
  return columns;
}

/** The columns an import of the collection at `path` takes, and the output-only ones it ignores. */
export function importColumnsOf(
  document: CsvOpenApiDocument,
  path: string,
  hooks: ResourceCsvHooks = {},
): ImportColumns {
  const resolve = resolverOf(document);
  const { response, body } = schemasOf(document, path);
  const columns = new Map<string, CsvCellKind>();
  for (const [name, schema] of Object.entries(body)) {
    const kind = csvCellKindOf(schema, resolve);
    columns.set(name, kind);
    const twin = externalRefTwin(name, kind);
    if (twin) columns.set(twin, kind);
  }
  for (const name of hooks.importOnly ?? []) {
    const schema = response[name];
    if (!schema) throw new Error(`${path}: csv.importOnly names ${name}, which the response lacks`);
    columns.set(name, csvCellKindOf(schema, resolve));
  }
  const ignored = new Set(Object.keys(response).filter((name) => !columns.has(name)));
  return { columns, ignored };
}

/** A registration entry as read here: its module (whose top-level `@ConditionalResource` controller is the resource). */
export interface CsvResourceEntry {
  module: Type;
  csv?: ResourceCsvHooks;
}

/** The collection path segment (`work-orders`) of an entry's resource, if it has one a client calls. */
export function collectionOf(entry: CsvResourceEntry): string | undefined {
  const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, entry.module) ?? []) as Type[];
  return controllers
    .filter((controller) => Reflect.getMetadata(CONDITIONAL_RESOURCE, controller) !== undefined)
    .map((controller) => Reflect.getMetadata(PATH_METADATA, controller) as string | undefined)
    .find((path): path is string => path !== undefined && !path.includes(':'));
}

/** Every registered resource's CSV, by its name in paths (`units`, `work-orders`), in registration order. */
export function resourceCsvsOf(document: CsvOpenApiDocument, entries: CsvResourceEntry[]): Map<string, ResourceCsv> {
  const csvs = new Map<string, ResourceCsv>();
  for (const entry of entries) {
    const resource = collectionOf(entry);
    if (!resource) continue;
    const path = `/v1/${resource}`;
    csvs.set(resource, {
      resource,
      exportColumns: csvColumnsOf(document, path, entry.csv),
      importColumns: importColumnsOf(document, path, entry.csv),
    });
  }
  return csvs;
}
