import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export interface WindowLimit {
  name: string;
  limit: number;
}

export interface WindowState extends WindowLimit {
  /** Requests counted in the window, including this one when it was allowed. */
  count: number;
  /** Time (ms) of the oldest counted request, undefined when none is counted. */
  oldest?: number;
  /** When refused: ms until enough requests leave this window for one more to fit; 0 when not exceeded. */
  retryAfterMs: number;
}

export interface RateDecision {
  allowed: boolean;
  windows: WindowState[];
}

/**
 * A true sliding window: a request at time t is counted while `now - windowMs < t`. A request is counted
 * in every window at once, or (when any window is full) in none, so a refusal consumes nothing.
 */
export abstract class SlidingWindowStore implements ThrottlerStorage {
  abstract consume(key: string, windows: WindowLimit[], now: number, windowMs: number): Promise<RateDecision>;

  abstract close(): Promise<void>;

  /** The stock throttler interface, for one window; our guard calls `consume` to check several atomically. */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    _block: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const decision = await this.consume(key, [{ name, limit }], now, ttl);
    const [state] = decision.windows;
    const timeToExpire = state.oldest === undefined ? 0 : Math.ceil((state.oldest + ttl - now) / 1000);
    return {
      totalHits: decision.allowed ? state.count : state.count + 1,
      timeToExpire,
      isBlocked: !decision.allowed,
      timeToBlockExpire: Math.ceil(state.retryAfterMs / 1000),
    };
  }
}
