import type { OpenAPIObject } from '@nestjs/swagger';
import { BODY_EXAMPLES_EXTENSION } from './api-operations.js';
import { withOwnValidationExamples } from './validation-examples.js';

// @nestjs/swagger exports the document type but not its parts; they are derived from it.
type Components = NonNullable<OpenAPIObject['components']>;
type Schema = NonNullable<Components['schemas']>[string];
type ReferenceObject = Extract<Schema, { $ref: string }>;
type SchemaObject = Exclude<Schema, ReferenceObject>;
type RequestBodyObject = Exclude<NonNullable<Components['requestBodies']>[string], ReferenceObject>;

// What @nestjs/swagger generates from the DTOs is close to the contract but not exact in three places that
// strict tools notice. These rewrites run once, on the finished document, so the DTOs can stay plain classes.

const SCHEMA_PREFIX = '#/components/schemas/';
const isReference = (schema: unknown): schema is ReferenceObject =>
  typeof schema === 'object' && schema !== null && '$ref' in schema;

/**
 * Update bodies are partial: an omitted field keeps its value, so the create defaults they inherit through
 * `PartialType` would mislead. They are removed from every `Update…Dto` schema.
 */
function withoutUpdateDefaults(schemas: Record<string, Schema>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    if (!/^Update\w+Dto$/.test(name) || isReference(schema)) continue;
    for (const property of Object.values(schema.properties ?? {})) {
      if (!isReference(property) && 'default' in property) delete property.default;
    }
  }
}

/**
 * Nest writes a nullable object property as `{nullable: true, allOf: [{$ref}]}`. OpenAPI 3.0.3 lets `nullable`
 * add null only to a `type` in the same schema, and the `allOf` still demands the object, so strict validators
 * (Prism, ajv) reject the `null` the API sends (an embedded record that may be absent). The referenced object
 * is inlined instead, with `nullable: true` beside its own `type: object`.
 */
function inlineNullableReferences(schemas: Record<string, Schema>): void {
  const visit = (schema: Schema): void => {
    if (isReference(schema)) return;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (isReference(property)) continue;
      const only = property.allOf?.length === 1 ? property.allOf[0] : undefined;
      if (property.nullable === true && isReference(only) && only.$ref.startsWith(SCHEMA_PREFIX)) {
        const target = schemas[only.$ref.slice(SCHEMA_PREFIX.length)];
        if (target && !isReference(target)) {
          const { allOf: _wrapped, ...annotations } = property;
          schema.properties![name] = { ...structuredClone(target), ...annotations, type: 'object', nullable: true };
        }
      }
      visit(property);
    }
    if (!isReference(schema.items ?? {}) && schema.items) visit(schema.items);
  };
  Object.values(schemas).forEach(visit);
}

/**
 * openapi-typescript (and other generators) make a property with a `default` non-optional when it appears in a
 * named schema, since a response always carries it; under `requestBodies` they leave it optional, as the client
 * may omit it. So each operation's request body moves, with its schema inline, to `components.requestBodies`
 * under the DTO's name: the defaults stay declared and clients still may leave those fields out.
 */
function moveRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const requestBodies: Record<string, RequestBodyObject | ReferenceObject> = document.components?.requestBodies ?? {};
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, { requestBody?: unknown }>)) {
      const body = operation.requestBody as RequestBodyObject | undefined;
      const media = body && !isReference(body) ? body.content['application/json'] : undefined;
      if (!body || !media?.schema || !isReference(media.schema)) continue;
      const name = media.schema.$ref.slice(SCHEMA_PREFIX.length);
      const schema = schemas[name];
      if (!schema) continue;
      const { description, ...rest } = schema as SchemaObject;
      requestBodies[name] ??= {
        ...(description ? { description } : {}),
        required: body.required ?? true,
        content: { 'application/json': { ...media, schema: rest } },
      };
      operation.requestBody = { $ref: `#/components/requestBodies/${name}` };
    }
  }
  if (Object.keys(requestBodies).length > 0) document.components = { ...document.components, requestBodies };
}

/** Drops named schemas nothing reaches any more (the ones inlined above), following references transitively. */
function withoutUnusedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const referencesIn = (value: unknown): string[] =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);
  const { schemas: _named, ...otherComponents } = document.components ?? {};
  const pending = referencesIn({ paths: document.paths, otherComponents });
  const reached = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    pending.push(...referencesIn(schemas[name] ?? {}));
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

type ResponseObject = { headers?: Record<string, unknown> };

/** Statuses answered before a keyed write's Idempotency-Key is read (the key's checks and limits): never marked. */
const BEFORE_THE_KEY = new Set(['401', '403', '429']);

/**
 * A keyed write's answers after its key was read carry `Idempotent-Replayed`, refusals too (a stored 400 is sent
 * again with `true`): the header its success answer documents goes on each of its error answers as well.
 */
function withReplayedOnKeyedAnswers(document: OpenAPIObject): void {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(
      operations as Record<string, { parameters?: unknown[]; responses?: Record<string, ResponseObject> }>,
    )) {
      const keyed = (operation.parameters ?? []).some(
        (parameter) => (parameter as { name?: string; in?: string }).name === 'Idempotency-Key',
      );
      const responses = Object.entries(operation.responses ?? {});
      const replayed = responses.find(([, response]) => response.headers?.['Idempotent-Replayed'])?.[1].headers?.[
        'Idempotent-Replayed'
      ];
      if (!keyed || !replayed) continue;
      for (const [status, response] of responses) {
        if (BEFORE_THE_KEY.has(status) || response.headers?.['Idempotent-Replayed']) continue;
        response.headers = { ...response.headers, 'Idempotent-Replayed': replayed };
      }
    }
  }
}

/** Each media type's own request-body example (`ApiBodyExamples`), in place of the extension that carried it. */
function withBodyExamplesByMediaType(document: OpenAPIObject): void {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, Record<string, unknown>>)) {
      const examples = operation[BODY_EXAMPLES_EXTENSION] as Record<string, string> | undefined;
      if (!examples) continue;
      delete operation[BODY_EXAMPLES_EXTENSION];
      const body = operation.requestBody as RequestBodyObject | ReferenceObject | undefined;
      if (!body || isReference(body)) continue;
      for (const [type, example] of Object.entries(examples)) {
        const media = body.content[type];
        if (media) media.example = example;
      }
    }
  }
}

/** The rewrites above, in order; `configureApp` applies them before the document is served. */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  // First: it reads the request bodies' schemas where Nest put them.
  withOwnValidationExamples(document);
  withBodyExamplesByMediaType(document);
  withoutUpdateDefaults(schemas);
  inlineNullableReferences(schemas);
  moveRequestBodies(document);
  withReplayedOnKeyedAnswers(document);
  withoutUnusedSchemas(document);
  return document;
}
