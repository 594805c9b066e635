import fc from 'fast-check';
import { bodyDefects, unparsableDefects, wholeBodyDefects } from './body-defects.js';
import { hasHeader, type Defect, type Draft, type FuzzContext, type FuzzRequest } from './defect.js';
import { fillPath, type Operation } from './openapi.js';
import { authDefects, headerDefects, pathDefects, queryDefects, validQueryValue } from './request-defects.js';
import { validObject } from './schema-values.js';

export type { FuzzContext, FuzzRequest } from './defect.js';

/**
 * Requests the API must refuse, generated from the OpenAPI document: a request that would be valid (the
 * team's key, its own record ids, valid query and body) with one or two defects applied, each of which alone
 * must be refused before anything is written (401, 400, 404, 412, 415). Every operation of the document gets
 * them, so a new route is fuzzed without a test written for it.
 */

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function baseDraft(op: Operation, context: FuzzContext): fc.Arbitrary<Draft> {
  const pathValues = Object.fromEntries(
    op.pathParams.map((parameter) => [parameter.name, context.own.get(parameter.name) ?? UNKNOWN_ID]),
  );
  const query = fc
    .tuple(...op.query.map((parameter) => fc.option(validQueryValue(context, parameter), { nil: undefined })))
    .map((values) =>
      values.flatMap((value, index): [string, string][] =>
        value === undefined ? [] : [[op.query[index].name, value]],
      ),
    );
  const idempotencyKey = hasHeader(op, 'Idempotency-Key')
    ? fc.option(fc.uuid(), { nil: undefined })
    : fc.constant(undefined);
  const body = op.body ? validObject(context, op.body) : fc.constant(undefined);
  return fc.tuple(query, idempotencyKey, body).map(([pairs, key, json]) => ({
    pathValues: { ...pathValues },
    query: pairs,
    headers: {
      ...(op.secured ? { Authorization: `Bearer ${context.apiKey}` } : {}),
      ...(key ? { 'Idempotency-Key': key } : {}),
      ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    json,
  }));
}

/** Every kind of defect this operation can be given; each one alone must get it refused. */
function defectsOf(op: Operation, context: FuzzContext): fc.Arbitrary<Defect> {
  const choices: fc.Arbitrary<Defect>[] = [unparsableDefects(), ...headerDefects(op)];
  if (op.secured) choices.push(authDefects(context));
  if (op.pathParams.length > 0) choices.push(pathDefects(op, context));
  // Every operation with a key refuses an unknown query parameter, whether or not it declares any.
  if (op.query.length > 0 || op.secured) choices.push(queryDefects(op, context));
  if (op.body) {
    // Body defects are the richest kind: weigh them so that most requests of a write carry one.
    choices.push(bodyDefects(context, op.body), bodyDefects(context, op.body), ...wholeBodyDefects());
  }
  return fc.oneof(...choices);
}

function toRequest(op: Operation, draft: Draft, labels: string[]): FuzzRequest {
  const search = draft.query
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const body = draft.text ?? (draft.json === undefined ? undefined : JSON.stringify(draft.json));
  return {
    operation: op.name,
    defects: labels,
    method: op.method,
    path: fillPath(op.path, draft.pathValues) + (search ? `?${search}` : ''),
    headers: draft.headers,
    body,
  };
}

/** One invalid request for `op`: a valid one with one or two defects. */
export function invalidRequestFor(op: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(baseDraft(op, context), fc.array(defectsOf(op, context), { minLength: 1, maxLength: 2 }))
    .map(([draft, defects]) => {
      const copy: Draft = {
        pathValues: { ...draft.pathValues },
        query: [...draft.query],
        headers: { ...draft.headers },
        json: structuredClone(draft.json),
      };
      const applied = [
        ...defects.filter((one) => !one.rewritesText),
        ...defects.filter((one) => one.rewritesText).slice(0, 1),
      ];
      for (const { apply } of applied) apply(copy);
      return toRequest(
        op,
        copy,
        applied.map(({ label }) => label),
      );
    });
}

/** An invalid request for any operation of the document, each equally likely. */
export function invalidRequest(operations: Operation[], context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map((op) => invalidRequestFor(op, context)));
}
