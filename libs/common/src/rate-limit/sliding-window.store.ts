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
export abstract class SlidingWindowStore {
  abstract consume(key: string, windows: readonly WindowLimit[], now: number, windowMs: number): Promise<RateDecision>;

  abstract close(): Promise<void>;
}
