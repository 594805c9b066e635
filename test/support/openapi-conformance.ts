import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// Every response the e2e suite receives is checked against the OpenAPI document the app serves: the status is
// documented for the operation, the body matches its schema, the headers the document marks `required` are
// there. The document is the contract clients generate code from; this makes every test a test of it.

/** Not part of the versioned API's document (the document itself, Swagger UI, probes, Prometheus). */
const UNDOCUMENTED = [/^\/v1\/openapi\.(json|yaml)$/, /^\/docs(\/|$)/, /^\/health(\/|$)/, /^\/metrics$/];

/**
 * Statuses a request that matched no route can still get: body errors are answered before routing, and a caller
 * over its rate limit gets 429 there too (docs/rate-limits.md).
 */
const UNROUTED_STATUSES = [400, 404, 413, 415, 429];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Header {
  required?: boolean;
  schema?: JsonObject;
}

interface Response {
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: JsonObject }>;
}

interface Operation {
  responses: Record<string, Response>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonObject> };
}

/** What the checker needs of a supertest response. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text?: string;
}

const COMPONENTS_ID = 'openapi-components';
const OAS_ONLY_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator'];

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An OpenAPI 3.0 schema as JSON Schema draft-07 for ajv. `nullable` adds `null` only to a `type` in the same
 * schema, as OpenAPI 3.0.3 defines it: a `nullable` beside `allOf`/`$ref` alone allows nothing more, which is
 * exactly what strict validators such as Prism do. Objects that do not say otherwise are closed
 * (`additionalProperties: false`), so a response field the document does not describe is a mismatch too.
 */
export function toJsonSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OAS_ONLY_KEYWORDS.includes(key) || key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', `${COMPONENTS_ID}#/definitions/`);
    } else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, toJsonSchema(s)]));
    } else if (['items', 'additionalProperties', 'not', 'allOf', 'oneOf', 'anyOf'].includes(key)) {
      out[key] = toJsonSchema(value);
    } else {
      out[key] = value;
    }
  }
  if (schema.nullable === true && typeof schema.type === 'string') {
    out.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[bound] === true) out[bound] = schema[limit] ?? null;
    if (typeof schema[bound] === 'boolean') {
      if (schema[bound]) delete out[limit];
      else delete out[bound];
    }
  }
  if (out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal paths win over templated ones that would match the same URL. */
  parameters: number;
}

function routesOf(document: OpenApiDocument): Route[] {
  return Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}/?$`,
      ),
      parameters: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.parameters - b.parameters);
}

function headerValue(response: ReceivedResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function headerProblem(name: string, header: Header, value: string | undefined): string | undefined {
  if (value === undefined) return header.required ? `required header ${name} is missing` : undefined;
  const schema = header.schema ?? {};
  if (schema.type === 'integer' && !/^-?\d+$/.test(value)) return `header ${name} is not an integer: ${value}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return `header ${name} is ${value}, not one of ${JSON.stringify(schema.enum)}`;
  return undefined;
}

function parseBody(response: ReceivedResponse): { body?: Json; problem?: string } {
  try {
    return { body: JSON.parse(response.text ?? '') as Json };
  } catch {
    return { problem: `body is not JSON: ${JSON.stringify((response.text ?? '').slice(0, 200))}` };
  }
}

export class ResponseConformance {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    // ajv-formats is CommonJS: under Node's ESM interop its default export may be the module object.
    const addFormats: typeof addFormatsModule.default =
      'default' in addFormatsModule ? addFormatsModule.default : addFormatsModule;
    this.ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(this.ajv);
    this.ajv.addSchema({
      $id: COMPONENTS_ID,
      definitions: Object.fromEntries(
        Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [name, toJsonSchema(schema)]),
      ),
    });
    this.routes = routesOf(document);
  }

  /** The problems with one response, or an empty list when the document describes it. */
  problems(method: string, url: string, response: ReceivedResponse): string[] {
    const path = new URL(url, 'http://localhost').pathname;
    if (UNDOCUMENTED.some((pattern) => pattern.test(path))) return [];
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const operation = route ? this.document.paths[route.template][verb] : undefined;
    if (!route || !operation) return this.unroutedProblems(response);

    const where = `${method.toUpperCase()} ${route.template}`;
    const documented = operation.responses[String(response.status)];
    if (!documented) {
      const statuses = Object.keys(operation.responses).join(', ');
      return [`${where}: status ${response.status} is not documented (documented: ${statuses})`];
    }
    const problems = Object.entries(documented.headers ?? {})
      .map(([name, header]) => headerProblem(name, header, headerValue(response, name)))
      .filter((problem): problem is string => problem !== undefined);

    const schema = documented.content?.['application/json']?.schema;
    if (method.toLowerCase() === 'head') return problems.map((problem) => `${where} ${response.status}: ${problem}`);
    // A CSV answer (a list's export, docs/exports.md) is text the document describes as a string: any text is one.
    const csv = documented.content?.['text/csv']?.schema;
    if (csv && /^text\/csv\b/.test(headerValue(response, 'content-type') ?? '')) {
      if (csv.type !== 'string') problems.push('the text/csv answer is not documented as a string');
      return problems.map((problem) => `${where} ${response.status}: ${problem}`);
    }
    if (!schema) {
      if ((response.text ?? '') !== '') problems.push('the document promises no body, but one was sent');
    } else if (!/^application\/json\b/.test(headerValue(response, 'content-type') ?? '')) {
      problems.push(`Content-Type is ${headerValue(response, 'content-type')}, not application/json`);
    } else {
      const { body, problem } = parseBody(response);
      if (problem) problems.push(problem);
      else problems.push(...this.schemaProblems(`${where} ${response.status}`, schema, body ?? null));
    }
    return problems.map((problem) => `${where} ${response.status}: ${problem}`);
  }

  /** Throws (for supertest's `.expect(fn)`) when the response is not the one the document describes. */
  assert(method: string, url: string, response: ReceivedResponse): void {
    const problems = this.problems(method, url, response);
    if (problems.length > 0) {
      throw new Error(
        `The response does not conform to the OpenAPI document:\n  ${problems.join('\n  ')}\n` +
          `  body: ${(response.text ?? '').slice(0, 500)}`,
      );
    }
  }

  /** A request no documented operation matches: it must be refused as `{error}`, like an unknown route. */
  private unroutedProblems(response: ReceivedResponse): string[] {
    if (!UNROUTED_STATUSES.includes(response.status))
      return [`an undocumented route answered ${response.status}, not 404`];
    const { body, problem } = parseBody(response);
    if (problem) return [problem];
    const keys = isObject(body ?? null) ? Object.keys(body as JsonObject) : [];
    const error = isObject(body ?? null) ? (body as JsonObject).error : undefined;
    if (keys.length !== 1 || typeof error !== 'string')
      return [`an undocumented route answered ${JSON.stringify(body)}, not exactly {error}`];
    return [];
  }

  private schemaProblems(key: string, schema: JsonObject, body: Json): string[] {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as JsonObject);
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `body${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }
}
