/**
 * The served OpenAPI document, read as the reliability suite needs it: every operation with its parameters
 * and body schema, `$ref`/`allOf` resolved. The suite generates its requests from this, so a route added to
 * the API is fuzzed and swept without a test written for it.
 */

export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  pattern?: string;
  default?: unknown;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}

interface RequestBody {
  $ref?: string;
  content?: Record<string, { schema?: Schema; example?: unknown }>;
}

interface OperationObject {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: RequestBody;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, Schema>;
    requestBodies?: Record<string, RequestBody>;
    parameters?: Record<string, Parameter>;
  };
  security?: unknown[];
}

export interface Operation {
  /** `PUT /v1/units/{unitId}`: names the operation in failures and figures. */
  name: string;
  method: string;
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  /** The JSON body's schema, resolved; undefined when the operation takes no body. */
  body?: Schema;
  /** The operation takes `multipart/form-data` (a file upload) instead of JSON. */
  multipart: boolean;
  /** The documented example of a `text/csv` body (an import), when the operation takes one. */
  csvExample?: string;
  /** Whether the operation needs an API key. */
  secured: boolean;
  /** Its 200 also answers `text/csv` (a list's export, docs/exports.md). */
  exportsCsv: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The schema with `$ref` and a single-branch `allOf` (how the plugin writes enums) replaced by their target. */
export function resolveSchema(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolveSchema(doc, component<Schema>(doc, schema.$ref));
  if (schema.allOf) {
    const { allOf, ...own } = schema;
    return Object.assign({}, ...allOf.map((part) => resolveSchema(doc, part)), own) as Schema;
  }
  return schema;
}

/** A component the document refers to (`#/components/<kind>/<name>`). */
function component<T>(doc: OpenApiDocument, ref: string): T {
  const [, , kind, name] = ref.split('/');
  const found = (doc.components as Record<string, Record<string, unknown> | undefined> | undefined)?.[kind]?.[name];
  if (found === undefined) throw new Error(`the document refers to a component it does not define: ${ref}`);
  return found as T;
}

function bodySchemaOf(doc: OpenApiDocument, operation: OperationObject): Schema | undefined {
  const body = operation.requestBody?.$ref
    ? component<RequestBody>(doc, operation.requestBody.$ref)
    : operation.requestBody;
  return body?.content?.['application/json']?.schema;
}

function csvExampleOf(doc: OpenApiDocument, operation: OperationObject): string | undefined {
  const body = operation.requestBody?.$ref
    ? component<RequestBody>(doc, operation.requestBody.$ref)
    : operation.requestBody;
  // The media type's own example first, as Swagger UI pre-fills it (the CSV and the NDJSON import have one each).
  const media = body?.content?.['text/csv'];
  const example = media?.example ?? media?.schema?.example;
  return typeof example === 'string' ? example : undefined;
}

function takesMultipart(doc: OpenApiDocument, operation: OperationObject): boolean {
  const body = operation.requestBody?.$ref
    ? component<RequestBody>(doc, operation.requestBody.$ref)
    : operation.requestBody;
  return body?.content?.['multipart/form-data'] !== undefined;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((parameter) =>
        '$ref' in parameter ? component<Parameter>(doc, parameter.$ref) : parameter,
      );
      const bodySchema = bodySchemaOf(doc, operation);
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        headers: parameters.filter((parameter) => parameter.in === 'header'),
        body: bodySchema ? resolveSchema(doc, bodySchema) : undefined,
        multipart: takesMultipart(doc, operation),
        csvExample: csvExampleOf(doc, operation),
        secured: (operation.security ?? doc.security ?? []).length > 0,
        exportsCsv: operation.responses?.['200']?.content?.['text/csv'] !== undefined,
      });
    }
  }
  return operations;
}

/**
 * Collections whose records are named by a path parameter: `unitId` → `/v1/units`, from the item path
 * `/v1/units/{unitId}` whose parent offers POST. A body field of the same name (`unitId`, or `unitIds` for a
 * list) links to a record of that collection.
 */
export function collectionsByParameter(operations: Operation[]): Map<string, string> {
  const creatable = new Set(operations.filter((op) => op.method === 'POST').map((op) => op.path));
  const collections = new Map<string, string>();
  for (const { path } of operations) {
    const match = /^(.*)\/\{(\w+)\}$/.exec(path);
    if (match && creatable.has(match[1])) collections.set(match[2], match[1]);
  }
  return collections;
}

/** The path parameter a body field links through: `unitId` and `unitIds` → `unitId`; undefined if none. */
export function linkedParameter(field: string, collections: Map<string, string>): string | undefined {
  const singular = field.endsWith('Ids') ? field.slice(0, -1) : field;
  return collections.has(singular) ? singular : undefined;
}

/** `/v1/units/{unitId}` with each parameter replaced (percent-encoded) by `values`. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(value);
  });
}
