import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { describeFailure } from '../errors/all-exceptions.filter.js';
import { ClientGoneError } from '../errors/domain-errors.js';
import { setBodyDigest } from './body-digest.js';

/** A valid Idempotency-Key (SafeWritesInterceptor refuses any other with 400, before it would store anything). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const deferred = new WeakMap<object, unknown>();

/**
 * Whether `refusal`, made by a route's guard while it received a streamed body (an upload, an import), may be left
 * to `SafeWritesInterceptor` to be stored under the request's Idempotency-Key (CONTRACT "Safe retries": every
 * answer but 5xx, 429 and the in-flight 409): a valid key was sent and the refusal is such a 4xx. Asked before
 * any body is read to know what was sent, so that no body is read for a refusal that will not be stored.
 */
export function mayDeferRefusal(request: Request, refusal: unknown): boolean {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) return false;
  const status = describeFailure(refusal)?.status;
  return status !== undefined && status >= 400 && status < 500 && status !== 429 && status !== ClientGoneError.STATUS;
}

/**
 * Leaves `refusal` to `SafeWritesInterceptor`, which throws it inside the key's transaction so that it is stored
 * like any answer, when `mayDeferRefusal` and the client's body was read to its end (or none of it at all): a body
 * cut off, or whose client left before it was read through, is no answer to keep (its retry must run anew). False
 * when the refusal is to be thrown as it is.
 */
export function deferRefusal(request: Request, refusal: unknown): boolean {
  if (!mayDeferRefusal(request, refusal)) return false;
  if (request.readableAborted || (request.readableDidRead && !request.readableEnded)) return false;
  deferred.set(request, refusal);
  return true;
}

/**
 * `deferRefusal`, for a refusal made by a guard that reads a streamed body: the refusal is left to be stored under
 * the request's Idempotency-Key, known by the digest `digestOf` gives of what was sent (reading the body now, outside
 * any transaction, if it must). True when it was left (the guard lets the request through to be refused there);
 * false when the guard is to throw it as it is: no key, a refusal that is not stored, or a body that cannot be known
 * (`digestOf` found none: a client gone before its end).
 */
export async function deferWithDigest(
  request: Request,
  refusal: unknown,
  digestOf: () => Promise<string | undefined>,
): Promise<boolean> {
  if (!mayDeferRefusal(request, refusal)) return false;
  const digest = await digestOf();
  if (digest === undefined || !deferRefusal(request, refusal)) return false;
  setBodyDigest(request, digest);
  return true;
}

/** The refusal `deferRefusal` left for this request, if any. */
export function deferredRefusalOf(request: object): unknown {
  return deferred.get(request);
}

/**
 * The digest of a body a route refused unread, for that refusal's Idempotency-Key: its `Content-Type` and every
 * byte, read now (outside any transaction); undefined when the client left before its end.
 */
export async function rawBodyDigest(request: Request): Promise<string | undefined> {
  const hash = createHash('sha256').update(`${request.headers['content-type'] ?? ''}\n`);
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) hash.update(chunk);
  } catch {
    return undefined;
  }
  return request.readableEnded ? hash.digest('hex') : undefined;
}
