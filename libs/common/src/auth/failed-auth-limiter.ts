import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../clock/clock.js';
import { AppConfig } from '../config/app-config.js';

const WINDOW_MS = 60_000;
/** Clients tracked at once; beyond it the oldest window is forgotten (memory stays bounded under a flood). */
const MAX_CLIENTS = 50_000;
/**
 * Lookups a throttled client still gets per clock second: enough that a valid key sent from a busy address (a
 * NAT, an office, a CI fleet) is looked up and accepted within a second or two, few enough that a flood costs
 * the database little.
 */
export const THROTTLED_LOOKUPS_PER_SECOND = 3;

interface Window {
  startedAt: number;
  failures: number;
  /** The clock second whose throttled lookups `lookups` counts. */
  second: number;
  lookups: number;
}

/**
 * Failed authentications per client address, in fixed one-minute windows, per instance. Only failures that cost a
 * database lookup count (an unknown, revoked or expired key the database was asked about); a malformed token, or a
 * key refused from memory (the cache's negative side), costs nothing and counts nothing. Past
 * `AUTH_FAILURES_PER_MINUTE`, the client is throttled until the window ends: a key this instance has cached (or
 * refused) is still answered from memory, and keys that need a lookup get `THROTTLED_LOOKUPS_PER_SECOND` lookups a
 * second; beyond those, 429. So guessing keys costs the database a bounded number of lookups per client and
 * minute, and another client's failures from the same address never lock out a valid key: it waits a second at
 * most for its lookup.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private current(client: string, now: number): Window | undefined {
    const window = this.windows.get(client);
    if (window && now - window.startedAt >= WINDOW_MS) {
      this.windows.delete(client);
      return undefined;
    }
    return window;
  }

  private throttledWindow(client: string, now: number): Window | undefined {
    const window = this.current(client, now);
    return window !== undefined && window.failures >= this.config.AUTH_FAILURES_PER_MINUTE ? window : undefined;
  }

  /** Asked when a key needs a database lookup: always yes, unless the client is throttled and used this second's. */
  mayLookUp(client: string): boolean {
    const now = this.clock.now();
    const window = this.throttledWindow(client, now);
    if (!window) return true;
    const second = Math.floor(now / 1000);
    if (window.second !== second) {
      window.second = second;
      window.lookups = 0;
    }
    if (window.lookups >= THROTTLED_LOOKUPS_PER_SECOND) return false;
    window.lookups++;
    return true;
  }

  fail(client: string): void {
    const now = this.clock.now();
    const window = this.current(client, now);
    if (window) {
      window.failures++;
      return;
    }
    if (this.windows.size >= MAX_CLIENTS) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(client, { startedAt: now, failures: 1, second: 0, lookups: 0 });
  }

  /**
   * The 429's headers: `Retry-After` until the next second's lookups (the key is looked up then, if the budget
   * is not spent again first); `X-RateLimit-*` describe the failure limit and when its window ends.
   */
  refuse(client: string, response: Response): void {
    const now = this.clock.now();
    const endsAt = (this.current(client, now)?.startedAt ?? now) + WINDOW_MS;
    const nextSecond = (Math.floor(now / 1000) + 1) * 1000;
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil((nextSecond - now) / 1000))));
    response.setHeader('X-RateLimit-Limit', String(this.config.AUTH_FAILURES_PER_MINUTE));
    response.setHeader('X-RateLimit-Remaining', '0');
    response.setHeader('X-RateLimit-Reset', String(Math.ceil(endsAt / 1000)));
  }
}
