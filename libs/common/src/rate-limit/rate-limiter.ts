import { Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../clock/clock.js';
import { RateLimits, WINDOW_MS } from './rate-limits.js';
import { RateDecision, SlidingWindowStore, WindowState } from './sliding-window.store.js';

/** How often at most the fail-open warning is logged while the store stays unreachable. */
const STORE_WARNING_EVERY_MS = 10_000;

/**
 * The window whose numbers the caller needs to see: the fewest requests left; among equals, the one that
 * stays closed longest (the longer wait when refused, else the later reset), since a request needs room in
 * every window it counts against.
 */
export function bindingWindow(windows: readonly WindowState[]): WindowState {
  const left = (window: WindowState): number => Math.max(0, window.limit - window.count);
  const oldest = (window: WindowState): number => window.oldest ?? Number.NEGATIVE_INFINITY;
  return windows.reduce((hardest, window) => {
    if (left(window) !== left(hardest)) return left(window) < left(hardest) ? window : hardest;
    if (window.retryAfterMs !== hardest.retryAfterMs)
      return window.retryAfterMs > hardest.retryAfterMs ? window : hardest;
    return oldest(window) > oldest(hardest) ? window : hardest;
  });
}

/**
 * Per-API-key limits over all routes, in a sliding window: a request is checked against all of its windows
 * and counted in all of them or in none, in one store call (see docs/rate-limits.md for why this is not
 * @nestjs/throttler's guard). The request gate calls it as soon as the key is known, before the body is read.
 */
@Injectable()
export class RateLimiter {
  private readonly log = new Logger('RateLimit');
  private lastStoreWarning = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: SlidingWindowStore,
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one request of the key, sets the `X-RateLimit-*` headers for the window that binds hardest, and
   * answers false (with `Retry-After` set) when the request must be refused with 429.
   */
  async admit(apiKeyId: string, method: string, response: Response): Promise<boolean> {
    const now = this.clock.now();
    let decision: RateDecision;
    try {
      decision = await this.store.consume(apiKeyId, this.limits.windowsOf(method), now, WINDOW_MS);
    } catch (error) {
      // Fail open: an outage of the limit store must not take the API down with it.
      if (now - this.lastStoreWarning > STORE_WARNING_EVERY_MS) {
        this.lastStoreWarning = now;
        const reason = error instanceof Error ? error.message : String(error);
        this.log.warn(`rate-limit store unavailable, requests are not limited: ${reason}`);
      }
      return true;
    }

    const binding = bindingWindow(decision.windows);
    const resetMs = binding.oldest === undefined ? now : binding.oldest + WINDOW_MS;
    response.setHeader('X-RateLimit-Limit', binding.limit);
    response.setHeader('X-RateLimit-Remaining', Math.max(0, binding.limit - binding.count));
    response.setHeader('X-RateLimit-Reset', Math.ceil(resetMs / 1000));
    if (decision.allowed) return true;
    // Accepted only once every full window has room again: the longest of their waits.
    const retryAfterMs = Math.max(...decision.windows.map((window) => window.retryAfterMs));
    response.setHeader('Retry-After', Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return false;
  }
}
