import type { Request } from 'express';
import { describeFailure } from '../errors/all-exceptions.filter.js';
import { ClientGoneError } from '../errors/domain-errors.js';

const deferred = new WeakMap<object, unknown>();

/**
 * Leaves a refusal a route's guard made — while it received a streamed body (an upload, an import), before the
 * write's interceptors run — to `SafeWritesInterceptor`, which throws it inside the Idempotency-Key's transaction,
 * so that it is stored like any answer (CONTRACT "Safe retries": every answer but 5xx, 429 and the in-flight 409).
 * Only with an Idempotency-Key, only a 4xx, and only when the client sent its whole body or none of it was read
 * yet: a body cut off is no answer to keep (its retry runs anew). False when the refusal is to be thrown as it is.
 */
export function deferRefusal(request: Request, refusal: unknown): boolean {
  if (request.headers['idempotency-key'] === undefined) return false;
  const status = describeFailure(refusal)?.status;
  if (status === undefined || status < 400 || status >= 500 || status === 429 || status === ClientGoneError.STATUS) {
    return false;
  }
  if (request.readableDidRead && !request.complete) return false;
  deferred.set(request, refusal);
  return true;
}

/** The refusal `deferRefusal` left for this request, if any. */
export function deferredRefusalOf(request: object): unknown {
  return deferred.get(request);
}
