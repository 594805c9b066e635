import { applyDecorators, Type, UseInterceptors } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiResponse } from '@nestjs/swagger';
import { EntityTagged } from '../safe-writes/entity-tag.guard.js';
import { SafeWritesInterceptor } from '../safe-writes/safe-writes.interceptor.js';
import { WriteEventsInterceptor } from '../safe-writes/write-events.js';
import { hasExternalRef } from '../validation/external-ref.js';
import { QueryCheckedInKeyedWrite } from '../validation/declared-query.guard.js';
import { ApiDataResponse, ApiErrorsDescribed, ApiErrorsWith, RATE_LIMIT_HEADERS } from './api-responses.js';

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

const IDEMPOTENCY_KEY_HEADER = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: for 24 h, the same key with the same method, path and body returns the stored answer ' +
    '(`Idempotent-Replayed: true`) and changes nothing; another request with the key is 422, one while the first ' +
    'is still running is 409. Every answer is stored (a refused upload or import too) but 5xx and 429 and the ' +
    'refusal of a body cut off before its end (docs/sync-and-retries.md). Scoped to the team. 1–255 visible ASCII ' +
    'characters, e.g. a UUID made once per logical operation and sent again with each retry of it.',
  // No `example`: Swagger UI would pre-fill it, and a second "Try it out" with another body would be a 422.
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
});

/**
 * A keyed write: Idempotency-Key documented and honoured (`SafeWritesInterceptor`), and its event recorded in the
 * same transaction (`WriteEventsInterceptor`: the app's events, for a resource's records). One decorator for both, so a write that
 * documents the key cannot miss the behaviour; `test/write-operations.e2e-spec.ts` checks that every write does.
 */
const IDEMPOTENCY_KEY = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(SafeWritesInterceptor, WriteEventsInterceptor),
    QueryCheckedInKeyedWrite(),
    IDEMPOTENCY_KEY_HEADER,
  );

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

type ErrorExamples = Partial<Record<number, string>>;

/** The 409 a write answers whatever its resource: its Idempotency-Key is still in use by a running request. */
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress; retry later';

/** The record's name in words, from its response class: `InvoiceLineResponse` → `Invoice line`. */
const recordName = (model: Type<unknown>): string => {
  const words = model.name.replace(/Response$/, '').replace(/(?<=[a-z])(?=[A-Z])/g, ' ');
  return words.charAt(0) + words.slice(1).toLowerCase();
};

/** The error texts the API sends about one record: not found, a stale If-Match, a running twin request. */
const recordErrors = (model: Type<unknown>, own: ErrorExamples = {}): ErrorExamples => ({
  404: `${recordName(model)} not found`,
  409: IN_PROGRESS,
  412: `If-Match does not match the ${recordName(model).toLowerCase()}'s current ETag "3q2-7wAbCdEfGhIjKlMnOpQrStU"; read it again`,
  ...own,
});

/** A write's 409s: for a record with `externalRef`, a duplicate one among them. */
const writeConflicts = (model: Type<unknown>, write: 'create' | 'update'): Partial<Record<number, string>> =>
  hasExternalRef(model)
    ? {
        409:
          'Conflict: the body’s `externalRef` is already used by another ' +
          `${recordName(model).toLowerCase()} of the team (nothing was changed; the list’s \`externalRef\` filter finds it)` +
          (write === 'update' ? ', the change is not allowed from the current state' : '') +
          ', or a request with the same Idempotency-Key is still in progress',
      }
    : {};

/** The ETag of a record no write takes `If-Match` for (an import): for `If-None-Match` only. */
const READ_ONLY_ENTITY_TAG = {
  ETag: {
    ...ENTITY_TAG.ETag,
    description: 'Strong entity tag of the record as GET one returns it; send it in If-None-Match',
  },
};

/**
 * GET one: 200 with an ETag, or 304 for a matching If-None-Match. `writable: false` for a record whose writes take
 * no If-Match (its ETag is for If-None-Match only).
 */
export const ApiGetOne = (model: Type<unknown>, { writable = true } = {}): MethodDecorator =>
  applyDecorators(
    EntityTagged(),
    IF_NONE_MATCH,
    ApiDataResponse(model, 200, 'Success', writable ? ENTITY_TAG : READ_ONLY_ENTITY_TAG),
    ApiResponse({
      status: 304,
      description: 'Not modified: If-None-Match matched the current ETag; no body',
      headers: { ...RATE_LIMIT_HEADERS, ...(writable ? ENTITY_TAG : READ_ONLY_ENTITY_TAG) },
    }),
    ApiErrorsWith(recordErrors(model), 400, 404),
  );

/**
 * POST: 201 with an ETag; honours Idempotency-Key. `examples` gives the operation's own error texts, and
 * `descriptions` its own descriptions of some statuses (a body other than JSON is refused in its own words).
 */
export const ApiCreate = (
  model: Type<unknown>,
  examples: ErrorExamples = {},
  descriptions: ErrorExamples = {},
): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY(),
    ApiDataResponse(model, 201, 'Created', { ...ENTITY_TAG, ...REPLAYED }),
    ApiErrorsDescribed(
      { ...writeConflicts(model, 'create'), ...descriptions },
      { 409: IN_PROGRESS, ...examples },
      400,
      409,
      413,
      422,
    ),
  );

/** PUT: 200 with the new ETag; honours Idempotency-Key and If-Match. */
export const ApiUpdate = (model: Type<unknown>, examples: ErrorExamples = {}): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY(),
    IF_MATCH,
    ApiDataResponse(model, 200, 'Updated', { ...ENTITY_TAG, ...REPLAYED }),
    ApiErrorsDescribed(writeConflicts(model, 'update'), recordErrors(model, examples), 400, 404, 409, 412, 413, 422),
  );

/** DELETE: 204; honours Idempotency-Key and If-Match. `model` names the record in the error examples. */
export const ApiDelete = (model: Type<unknown>, examples: ErrorExamples = {}): MethodDecorator =>
  applyDecorators(
    IDEMPOTENCY_KEY(),
    IF_MATCH,
    ApiResponse({ status: 204, description: 'Deleted; no body', headers: { ...RATE_LIMIT_HEADERS, ...REPLAYED } }),
    ApiErrorsWith(recordErrors(model, examples), 400, 404, 409, 412, 422),
  );

/** An operation's own words for some of its error statuses, where the API-wide ones would mislead. */
export interface OwnErrorTexts {
  /** What the status means for this operation. */
  descriptions?: ErrorExamples;
  /** The `error` text it sends. */
  examples?: ErrorExamples;
}

/**
 * A write that is not a record's own create, update or delete with ETags (webhook endpoints, their actions):
 * honours Idempotency-Key; `model` undefined means no body (204). The error statuses may end with the operation's
 * own texts for some of them (a body that is not JSON has limits and types of its own).
 */
export const ApiWrite = (
  model: Type<unknown> | undefined,
  status: number,
  description: string,
  ...errors: Array<number | OwnErrorTexts>
): MethodDecorator => {
  const statuses = errors.filter((error): error is number => typeof error === 'number');
  const own = errors.find((error): error is OwnErrorTexts => typeof error === 'object') ?? {};
  return applyDecorators(
    IDEMPOTENCY_KEY(),
    model
      ? ApiDataResponse(model, status, description, REPLAYED)
      : ApiResponse({ status, description, headers: { ...RATE_LIMIT_HEADERS, ...REPLAYED } }),
    ApiErrorsDescribed(own.descriptions ?? {}, own.examples ?? {}, ...statuses, 422),
  );
};

/** The extension `ApiBodyExamples` writes and `finishDocument` turns into each media type's `example`. */
export const BODY_EXAMPLES_EXTENSION = 'x-body-examples';

/**
 * A request body's example for each media type it may be sent as (a CSV and an NDJSON import), which Swagger UI
 * pre-fills for the type chosen; `ApiBody` alone gives every media type the one schema example.
 */
export const ApiBodyExamples = (examples: Record<string, string>): MethodDecorator =>
  ApiExtension(BODY_EXAMPLES_EXTENSION, examples) as MethodDecorator;
