import type { Caller } from './caller.js';

/** What a key lookup found, and whether it cost a database lookup. */
export interface Identification {
  caller?: Caller;
  /** The database was asked. */
  lookedUp: boolean;
  /** A lookup was needed, and `mayLookUp` refused it: the key is neither accepted nor refused. */
  deferred: boolean;
}

/**
 * Who a bearer token belongs to: the injection token the request gate and `ApiKeyGuard` depend on. The app's API
 * keys feature provides it (apps/api/src/api-keys), so this library knows no key table.
 */
export abstract class CallerLookup {
  /**
   * The caller behind a token, saying what it cost: `lookedUp` when the database was asked, `deferred` when it had
   * to be and `mayLookUp` said no.
   */
  abstract identify(token: string, mayLookUp?: () => boolean): Promise<Identification>;

  /** The caller behind a token, or undefined when it is malformed, unknown, revoked or expired. */
  abstract authenticate(token: string): Promise<Caller | undefined>;
}

/** Where the request gate counts each answered request of an identified caller (the app's usage recorder). */
export abstract class RequestUsage {
  abstract record(caller: Caller, method: string, path: string, status: number, durationMs: number): void;
}
