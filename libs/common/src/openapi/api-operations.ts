import { applyDecorators, Type } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrors, RATE_LIMIT_HEADERS } from './api-responses.js';

// The OpenAPI face of a resource's five operations beyond listing: one decorator each, carrying the success
// response, its headers, the request headers it honours and every error status it can answer.

const ENTITY_TAG = {
  ETag: {
    description: 'Strong entity tag of the record as GET one returns it; send it in If-Match or If-None-Match',
    required: true,
    schema: { type: 'string', example: '"3q2-7wAbCdEfGhIjKlMnOpQrStU"' },
  },
};

const REPLAYED = {
  'Idempotent-Replayed': {
    description:
      'Sent with Idempotency-Key: `true` when this is the stored answer of an earlier request with the key, `false` otherwise',
    required: false,
    schema: { type: 'string', enum: ['true', 'false'] },
  },
};

const IDEMPOTENCY_KEY = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: for 24 h, the same key with the same method, path and body returns the stored answer ' +
    '(`Idempotent-Replayed: true`) and changes nothing; another request with the key is 422, one while the first ' +
    'is still running is 409. 5xx and 429 answers are not stored. Scoped to the team.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$', example: 'a1b2c3d4-order-7' },
});

const IF_MATCH = ApiHeader({
  name: 'If-Match',
  required: false,
  description:
    'Applies the change only if the record is still the one with this ETag (or `*`: any); otherwise 412 and ' +
    'nothing changes. Checked after the key, the limits and the record’s existence, before the body is validated.',
  schema: { type: 'string' },
});

const IF_NONE_MATCH = ApiHeader({
  name: 'If-None-Match',
  required: false,
  description: 'An ETag from an earlier read: when the record still has it, the answer is 304 with no body.',
  schema: { type: 'string' },
});

/** GET one: 200 with an ETag, or 304 for a matching If-None-Match. */
export const ApiGetOne = (model: Type<unknown>): MethodDecorator =>
  applyDecorators(
    IF_NONE_MATCH,
    ApiDataResponse(model, 200, 'Success', ENTITY_TAG),
    ApiResponse({
      status: 304,
      description: 'Not modified: If-None-Match matched the current ETag; no body',
      headers: { ...RATE_LIMIT_HEADERS, ...ENTITY_TAG },
    }),
    ApiErrors(400, 404),
  );

/** POST: 201 with an ETag; honours Idempotency-Key. */
export const ApiCreate = (model: Type<unknown>): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY,
    ApiDataResponse(model, 201, 'Created', { ...ENTITY_TAG, ...REPLAYED }),
    ApiErrors(400, 409, 413, 422),
  );

/** PUT: 200 with the new ETag; honours Idempotency-Key and If-Match. */
export const ApiUpdate = (model: Type<unknown>): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiDataResponse(model, 200, 'Updated', { ...ENTITY_TAG, ...REPLAYED }),
    ApiErrors(400, 404, 409, 412, 413, 422),
  );

/** DELETE: 204; honours Idempotency-Key and If-Match. */
export const ApiDelete = (): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiResponse({ status: 204, description: 'Deleted; no body', headers: { ...RATE_LIMIT_HEADERS, ...REPLAYED } }),
    ApiErrors(400, 404, 409, 412, 422),
  );
