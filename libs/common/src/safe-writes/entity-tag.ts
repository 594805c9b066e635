import { createHash } from 'node:crypto';

/**
 * A strong entity tag of a JSON body: a hash of the exact bytes sent, so it changes whenever the body would
 * (embedded parts included, such as a linked record's name) and two equal bodies share it.
 */
export function entityTagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
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
