import { applyDecorators, HttpStatus, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error.response.js';
import { Pagination } from '../pagination/pagination.response.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Validation error: the text names each field and rule',
  401: 'Missing, malformed, unknown or revoked API key',
  404: 'No such record for this team',
  409: 'Conflict: the change is not allowed from the current state, the record is still referred to, or a request with the same Idempotency-Key is still in progress',
  412: 'If-Match does not match the current ETag: the record changed since it was read; nothing was changed',
  413: 'Body larger than 1 MiB',
  415: 'A body sent with a Content-Type other than application/json',
  422: 'The Idempotency-Key was already used with a different method, path or body',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal server error',
  503: 'Database unreachable or a query timed out; retry later',
};

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window that binds hardest',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window after this one', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Unix second at which the oldest counted request leaves the window',
    schema: { type: 'integer' },
  },
};

/**
 * Documents the `{error}` responses an operation can give: 401, 429, 500 and 503 are always possible, and an
 * operation that takes a body (413) can also answer 415.
 */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  const withBody = statuses.includes(413) ? [415] : [];
  const all = [...new Set([...statuses, ...withBody, 401, 429, 500, 503])].sort();
  return applyDecorators(
    ApiExtraModels(ErrorBody),
    ...all.map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? HttpStatus[status],
        type: ErrorBody,
        headers:
          status === 429
            ? {
                ...RATE_LIMIT_HEADERS,
                'Retry-After': {
                  description: 'Seconds until the request would be accepted',
                  schema: { type: 'integer' },
                },
              }
            : undefined,
      }),
    ),
  );
}

/** `{data: <Model>}` with the given success status (and response headers beside the rate-limit ones). */
export function ApiDataResponse(
  model: Type<unknown>,
  status = 200,
  description = 'Success',
  headers: Record<string, { description: string; schema: object }> = {},
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

/** `{data: [<Model>], pagination}`. */
export function ApiPageResponse(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model, Pagination),
    ApiResponse({
      status: 200,
      description: 'One page of records, newest first',
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
