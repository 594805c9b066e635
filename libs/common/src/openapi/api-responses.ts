import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error.response.js';
import { Pagination } from '../pagination/pagination.response.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Validation error: the text names each field and rule (several joined with `; `). Also a path id that is not a UUID, an unknown query parameter or body property, malformed JSON, or an id in the body that names no record of the team',
  401: 'Missing, malformed, unknown or revoked API key (checked before anything else, so no rate-limit headers)',
  403: 'This API key is read-only: writes (POST, PUT, DELETE) need a read-and-write key. Answered after the key and the limits, before the body is validated',
  404: 'No such record for this team (a record of another team is answered the same way)',
  409: 'Conflict: the change is not allowed from the current state, the record is still referred to, or a request with the same Idempotency-Key is still in progress',
  410: 'The cursor (`after`) names an event older than the 30-day retention; start again without `after`',
  412: 'If-Match does not match the current ETag: the record changed since it was read; nothing was changed',
  413: 'Body larger than 1 MiB (1,048,576 bytes)',
  415: 'A body sent with a Content-Type other than application/json',
  422: 'The Idempotency-Key was already used with a different method, path or body',
  429: 'Rate limit exceeded; retry after `Retry-After` seconds. Nothing was counted. Also `Too many failed authentication attempts from this address; retry later` once the caller’s address sent more unknown, revoked or expired keys than `AUTH_FAILURES_PER_MINUTE` (default 60) in the current minute and used this second’s few lookups (retry after a second; a valid key is then looked up and accepted); the headers then describe that limit',
  500: 'Internal server error; never a stack trace',
  503: 'The database is unreachable, a query timed out, the request conflicted with a concurrent one, or a schema change (a migration) met it mid-request; nothing was written. Also `The service is starting; retry in a moment` for a request that reached an instance still starting. Retry after `Retry-After` seconds',
};

/**
 * One realistic body per status, so Swagger UI does not show a validation message under every status. Each is
 * the text the API really sends; the record operations replace 404, 409 and 412 with their resource's own.
 */
/** Replaced in the finished document by an example of the operation's own (`withOwnValidationExamples`). */
export const GENERIC_VALIDATION_EXAMPLE = 'companyName must be shorter than or equal to 260 characters';

const ERROR_EXAMPLE: Record<number, string> = {
  400: GENERIC_VALIDATION_EXAMPLE,
  401: 'Invalid or revoked API key',
  403: 'This API key is read-only',
  404: 'Record not found',
  409: 'A request with this Idempotency-Key is still in progress; retry later',
  410: 'after names an event older than the 30-day retention; start again without after',
  412: 'If-Match does not match the record\'s current ETag "3q2-7wAbCdEfGhIjKlMnOpQrStU"; read it again',
  413: 'Request body exceeds the limit of 1048576 bytes (1 MiB)',
  415: 'Content-Type must be application/json',
  422: 'This Idempotency-Key was used with a different request (method, path or body); use a new key',
  429: 'Rate limit exceeded',
  500: 'Internal server error',
  503: 'The request took too long and was cancelled',
};

type Header = { description: string; required?: boolean; schema: object };

const rateLimitHeaders = (required: boolean): Record<string, Header> => ({
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window that binds hardest',
    required,
    schema: { type: 'integer', format: 'int32', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window after this one',
    required,
    schema: { type: 'integer', format: 'int32', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix second at which the oldest counted request leaves the window',
    required,
    schema: { type: 'integer', format: 'int64', minimum: 0 },
  },
});

/**
 * On every answer to a request whose key was accepted, except while the rate-limit store (Redis) cannot be
 * reached: the API then fails open and serves requests unlimited, without these headers (docs/rate-limits.md).
 * So they are documented as not required; a 429 always has them.
 */
export const RATE_LIMIT_HEADERS = Object.fromEntries(
  Object.entries(rateLimitHeaders(false)).map(([name, header]) => [
    name,
    { ...header, description: `${header.description}; absent only while the rate-limit store is unreachable` },
  ]),
);

/**
 * An error can also come before the key is checked (a malformed or oversized body, a database outage while
 * checking it): the rate-limit headers are then absent as well.
 */
const ERROR_RATE_LIMIT_HEADERS = Object.fromEntries(
  Object.entries(rateLimitHeaders(false)).map(([name, header]) => [
    name,
    { ...header, description: `${header.description}; present when the API key was accepted and counted` },
  ]),
);

const RETRY_AFTER: Record<string, Header> = {
  'Retry-After': {
    description: 'Whole seconds (at least 1) until the request would be accepted',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60 },
  },
};

function errorHeaders(status: number): Record<string, Header> | undefined {
  if (status === 401) return undefined;
  if (status === 429) return { ...rateLimitHeaders(true), ...RETRY_AFTER };
  if (status === 503) {
    return {
      ...ERROR_RATE_LIMIT_HEADERS,
      'Retry-After': {
        ...RETRY_AFTER['Retry-After'],
        description: 'Whole seconds to wait before retrying (2; 1 from an instance still starting)',
      },
    };
  }
  return ERROR_RATE_LIMIT_HEADERS;
}

/**
 * Documents the `{error}` responses an operation can give: 401, 429, 500 and 503 are always possible, an
 * operation that takes a body (413) can also answer 415, and a write (one that takes an Idempotency-Key, 422)
 * answers 403 to a read-only key.
 */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return ApiErrorsWith({}, ...statuses);
}

/** `ApiErrors` with the operation's own example texts for some statuses. */
export function ApiErrorsWith(
  examples: Partial<Record<number, string>>,
  ...statuses: number[]
): MethodDecorator & ClassDecorator {
  return ApiErrorsDescribed({}, examples, ...statuses);
}

/** `ApiErrorsWith` with the operation's own descriptions for some statuses too. */
export function ApiErrorsDescribed(
  descriptions: Partial<Record<number, string>>,
  examples: Partial<Record<number, string>>,
  ...statuses: number[]
): MethodDecorator & ClassDecorator {
  const withBody = statuses.includes(413) ? [415] : [];
  const write = statuses.includes(422) ? [403] : [];
  const all = [...new Set([...statuses, ...withBody, ...write, 401, 429, 500, 503])].sort();
  return applyDecorators(
    ApiExtraModels(ErrorBody),
    ...all.map((status) =>
      ApiResponse({
        status,
        description: descriptions[status] ?? ERROR_TEXT[status] ?? HttpStatus[status],
        type: ErrorBody,
        example: { error: examples[status] ?? ERROR_EXAMPLE[status] ?? HttpStatus[status] },
        headers: errorHeaders(status),
      }),
    ),
  );
}

/**
 * The `{error}` answers of an operation that needs no key (a signed download): its own statuses, described and
 * exemplified here, and a server fault and 503; never 401 or 429, which only an API key's checks answer.
 */
export function ApiKeylessErrors(
  own: Record<number, { description: string; example: string }>,
): MethodDecorator & ClassDecorator {
  const all: Record<number, { description: string; example: string }> = {
    ...own,
    500: { description: ERROR_TEXT[500], example: ERROR_EXAMPLE[500] },
    503: { description: ERROR_TEXT[503], example: ERROR_EXAMPLE[503] },
  };
  return applyDecorators(
    ApiExtraModels(ErrorBody),
    ...Object.entries(all).map(([status, { description, example }]) =>
      ApiResponse({
        status: Number(status),
        description,
        type: ErrorBody,
        example: { error: example },
        headers: status === '503' ? { 'Retry-After': RETRY_AFTER['Retry-After'] } : undefined,
      }),
    ),
  );
}

/** The answer to every request that reaches an instance before it is open (docs/operations.md, "Health"). */
export const STARTING_ERROR = 'The service is starting; retry in a moment';

/**
 * The one `{error}` an operation that needs no key and no database can give: 503 from an instance still starting
 * (`Retry-After: 1`). For operations outside `ApiErrors`, such as the discovery document.
 */
export function ApiStartingResponse(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorBody),
    ApiResponse({
      status: 503,
      description: 'The instance is still starting; retry after `Retry-After` seconds',
      type: ErrorBody,
      example: { error: STARTING_ERROR },
      headers: {
        'Retry-After': { ...RETRY_AFTER['Retry-After'], description: 'Whole seconds to wait before retrying (1)' },
      },
    }),
  );
}

/** `{data: <Model>}` with the given success status (and response headers beside the rate-limit ones). */
export function ApiDataResponse(
  model: Type<unknown>,
  status = 200,
  description = 'Success',
  headers: Record<string, Header> = {},
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      headers: { ...RATE_LIMIT_HEADERS, ...headers },
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { $ref: getSchemaPath(model) } },
      },
    }),
  );
}

/** `{data: [<Model>], pagination}`; `description` says the order when it is not the lists' usual one. */
export function ApiPageResponse(
  model: Type<unknown>,
  description = 'One page of records, newest first',
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model, Pagination),
    ApiResponse({
      status: 200,
      description,
      headers: RATE_LIMIT_HEADERS,
      schema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          pagination: { $ref: getSchemaPath(Pagination) },
        },
      },
    }),
  );
}
