import { AppConfig } from '../config/app-config.js';
import type { WindowLimit } from './sliding-window.store.js';

export const WINDOW_MS = 60_000;
export const ALL_REQUESTS = 'all';
export const WRITE_REQUESTS = 'writes';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** POST, PUT, PATCH and DELETE: they count against the writes limit and are refused to read-only keys. */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method);
}

/**
 * The named limits per sliding window of WINDOW_MS: every request counts against "all", writes also against
 * "writes". The lists are built once, since the guard asks for one on every request.
 */
export class RateLimits {
  private readonly reads: readonly WindowLimit[];
  private readonly writes: readonly WindowLimit[];

  constructor(requestsPerWindow: number, writesPerWindow: number) {
    const all = { name: ALL_REQUESTS, limit: requestsPerWindow };
    // "all" first: of two windows that bind equally hard, the headers show the first.
    this.reads = [all];
    this.writes = [all, { name: WRITE_REQUESTS, limit: writesPerWindow }];
  }

  static fromConfig(config: AppConfig): RateLimits {
    return new RateLimits(config.RATE_LIMIT_PER_MINUTE, config.RATE_LIMIT_WRITES_PER_MINUTE);
  }

  /** The windows a request with this HTTP method is checked and counted against. */
  windowsOf(method: string): readonly WindowLimit[] {
    return WRITE_METHODS.has(method) ? this.writes : this.reads;
  }
}
