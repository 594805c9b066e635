import type { OpenAPIObject } from '@nestjs/swagger';
import { unknownQueryParameter } from '../validation/validation-errors.js';
import { GENERIC_VALIDATION_EXAMPLE } from './api-responses.js';

interface Parameter {
  name: string;
  in: string;
  schema?: { maximum?: number };
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; required?: string[] } }> };
  responses?: Record<string, { content?: Record<string, { example?: { error?: string } }> }>;
}

const SCHEMA_PREFIX = '#/components/schemas/';

/**
 * A 400 the operation really sends, in the words the API uses, for an operation that gave no example of its own:
 * a required body field left out, a paging bound passed, a path id that is not a UUID, or else a query parameter
 * it does not take. (Before, every such operation showed one resource's rule, about a field most of them lack.)
 */
function validationExampleOf(document: OpenAPIObject, operation: Operation): string {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const schema = body?.$ref ? document.components?.schemas?.[body.$ref.slice(SCHEMA_PREFIX.length)] : body;
  const required = (schema as { required?: string[] } | undefined)?.required ?? [];
  if (required.length > 0) return `${required[0]} is required`;
  const parameters = operation.parameters ?? [];
  // The tightest bound (`pageSize`, `limit`), the one a client meets first.
  const [bounded] = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.schema?.maximum !== undefined)
    .sort((a, b) => (a.schema?.maximum ?? 0) - (b.schema?.maximum ?? 0));
  if (bounded) return `${bounded.name} must not be greater than ${bounded.schema?.maximum}`;
  const id = parameters.filter((parameter) => parameter.in === 'path').at(-1);
  if (id) return `${id.name} must be a UUID`;
  return unknownQueryParameter('colour');
}

/** Replaces the generic 400 example of every operation with one of its own (`validationExampleOf`). */
export function withOwnValidationExamples(document: OpenAPIObject): void {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, Operation>)) {
      const example = operation.responses?.['400']?.content?.['application/json']?.example;
      if (example?.error === GENERIC_VALIDATION_EXAMPLE) example.error = validationExampleOf(document, operation);
    }
  }
}
