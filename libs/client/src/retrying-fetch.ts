/** How hard the client tries before it hands an answer (or a network error) back to the caller. */
export interface RetryOptions {
  /** Attempts per call, the first included (1 turns retrying off). Default 3. */
  maxAttempts: number;
  /**
   * The longest single wait, in milliseconds. A `Retry-After` longer than this is not waited out: the 429 (or
   * 503) goes back to the caller at once, since retrying sooner than the server asked is refused again.
   * Default 60 000 (the rate-limit window is 60 s, so `Retry-After` never exceeds it).
   */
  maxWaitMs: number;
  /** The first back-off after a network error, a 5xx without `Retry-After` or a 409 "in progress"; doubles per attempt. Default 250. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 3, maxWaitMs: 60_000, baseDelayMs: 250 };

export type Fetch = (request: Request) => Promise<Response>;
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Methods that may be sent twice without harm whatever the server does (RFC 9110 "safe"). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The answer the server gives while the first request with an `Idempotency-Key` is still running. It is told apart
 * from the other 409s (a status move the table forbids, a record still referred to) by its text: those are final,
 * this one is "come back in a moment".
 */
const IN_PROGRESS = /Idempotency-Key is still in progress/i;

type Outcome = { response: Response } | { error: unknown };

/**
 * A request may be sent again only when doing so cannot do the work twice: safe methods, and writes that carry an
 * `Idempotency-Key` (the server replays the stored answer of a request that did complete, and stores neither 5xx
 * nor 429 answers, so a retry after those runs anew).
 */
function repeatable(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || request.headers.has('Idempotency-Key');
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterMs(response: Response, now: number): number | undefined {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function isInProgress(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    return IN_PROGRESS.test(await response.clone().text());
  } catch {
    return false;
  }
}

/** A fetch that sends each request again, within `retry`, after a 429, a 5xx, a 409 "in progress" or a network error. */
export function retryingFetch(fetch: Fetch, retry: RetryOptions, sleep: Sleep): Fetch {
  const backoff = (attempt: number): number => Math.min(retry.maxWaitMs, retry.baseDelayMs * 2 ** (attempt - 1));

  /** How long to wait before attempt `attempt + 1`, or undefined to stop and answer with `outcome`. */
  const delayBefore = async (request: Request, outcome: Outcome, attempt: number): Promise<number | undefined> => {
    if (attempt >= retry.maxAttempts || request.signal.aborted) return undefined;
    if ('error' in outcome) return repeatable(request) ? backoff(attempt) : undefined;
    const { response } = outcome;
    if (response.status === 429 || (response.status >= 500 && repeatable(request))) {
      // A 429 consumed nothing, so any method may be sent again; it is the server that says when.
      const asked = retryAfterMs(response, Date.now());
      if (asked === undefined) return backoff(attempt);
      return asked <= retry.maxWaitMs ? asked : undefined;
    }
    if (request.headers.has('Idempotency-Key') && (await isInProgress(response))) return backoff(attempt);
    return undefined;
  };

  return async (request) => {
    for (let attempt = 1; ; attempt += 1) {
      // Each attempt sends a copy, so the original body is still there for the next one.
      let outcome: Outcome;
      try {
        outcome = { response: await fetch(request.clone()) };
      } catch (error) {
        outcome = { error };
      }
      const delay = await delayBefore(request, outcome, attempt);
      if (delay === undefined) {
        if ('error' in outcome) throw outcome.error;
        return outcome.response;
      }
      // The refused answer's body is not read: release its connection before waiting.
      if ('response' in outcome) await outcome.response.body?.cancel().catch(() => undefined);
      await sleep(delay);
    }
  };
}
