import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `next` (the rest of the request's handling) with the request id available to every log line. */
export function runWithRequestId(requestId: string, next: () => void): void {
  storage.run({ requestId }, next);
}

/** The id of the request being handled, when a log line is written while handling one. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
