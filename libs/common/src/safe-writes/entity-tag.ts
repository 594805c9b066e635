import { hash } from 'node:crypto';

/**
 * A strong entity tag of a JSON body: a hash of the exact bytes sent, so it changes whenever the body would
 * (embedded parts included, such as a linked record's name) and two equal bodies share it. Node's one-shot
 * `hash`: the same digest as `createHash(…).update(…).digest(…)`, without a Hash object for every answer.
 */
export function entityTagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 27)}"`;
}

/**
 * The entity tag of a one-record answer `{data}`: of its bytes (`json`, when given), or, when the record has fields
 * outside its tag (`ConditionalResourceOptions.untaggedFields`, e.g. a signed URL made anew for every read), of the
 * answer without them. The same function makes the header and checks `If-Match`, so the two always agree.
 */
export function entityTagOfAnswer(answer: unknown, untaggedFields: readonly string[] = [], json?: string): string {
  const data = isRecord(answer) ? answer.data : undefined;
  if (untaggedFields.length === 0 || !isRecord(answer) || !isRecord(data)) {
    return entityTagOf(json ?? JSON.stringify(answer));
  }
  const tagged = Object.fromEntries(Object.entries(data).filter(([field]) => !untaggedFields.includes(field)));
  return entityTagOf(JSON.stringify({ ...answer, data: tagged }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tags listed in an `If-Match` / `If-None-Match` header; `*` stands for any current representation. */
function listedTags(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** `If-Match` (RFC 9110 13.1.1): strong comparison; `*` matches any existing record. */
export function ifMatchHolds(header: string, current: string): boolean {
  return listedTags(header).some((tag) => tag === '*' || tag === current);
}

/** `If-None-Match` (RFC 9110 13.1.2): weak comparison (a `W/` prefix is ignored); `*` matches any record. */
export function ifNoneMatchFails(header: string, current: string): boolean {
  return listedTags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === current);
}
