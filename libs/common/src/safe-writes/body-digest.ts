import { createHash, hash as digestOf } from 'node:crypto';
import type { Request } from 'express';

/** Bodies a route reads itself, as a stream (a file, an import's rows): never parsed as JSON before the route. */
const STREAMED_TYPES = ['multipart/form-data', 'text/csv', 'application/x-ndjson'];

const digests = new WeakMap<object, string>();

/** JSON with object keys sorted at every level: "the same body" ignores key order and whitespace. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What "the same body" is for a route that reads its body as a stream (CONTRACT "Safe retries"): the route sets
 * it once it has read the body — an upload the file's SHA-256 with its fields, an import the SHA-256 of its
 * bytes. Keyed by the request (the stream the route read).
 */
export function setBodyDigest(request: object, digest: string): void {
  digests.set(request, digest);
}

/** True when the request's body is one a route reads as a stream, not JSON. */
function streamsItsBody(request: Request): boolean {
  return typeof request.is(STREAMED_TYPES) === 'string';
}

/**
 * The idempotency fingerprint of the request's body: the SHA-256 of its JSON value (key order and whitespace
 * ignored), or for a streamed body the digest its route set as it read it. A streamed body no route has touched (a
 * replay, whose route does not run; a route that takes no body) is read now and its bytes hashed — an import's
 * digest is of its bytes too. A streamed body a route read without a digest, or began to drain after a refusal,
 * has none (undefined): it cannot be told from another.
 */
export async function bodyFingerprint(request: Request): Promise<string | undefined> {
  if (!streamsItsBody(request)) return digestOf('sha256', canonicalJson(request.body), 'hex');
  const digest = digests.get(request);
  if (digest !== undefined) return digest;
  if (request.readableDidRead || request.readableFlowing || request.readableEnded) return undefined;
  const hash = createHash('sha256');
  for await (const chunk of request as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}
