import { RateDecision, SlidingWindowStore, WindowLimit } from './sliding-window.store.js';

/** One process's windows: per key and window, the ascending times of the counted requests. */
export class MemorySlidingWindowStore extends SlidingWindowStore {
  private readonly hits = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;
  /** The latest time and longest window seen, so sweeping follows the injected clock, not the wall clock. */
  private latestNow = Number.NEGATIVE_INFINITY;
  private longestWindowMs = 0;

  constructor(sweepEveryMs = 60_000) {
    super();
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  /** Number of windows held in memory (idle ones are dropped by `sweep`). */
  get size(): number {
    return this.hits.size;
  }

  async consume(key: string, windows: readonly WindowLimit[], now: number, windowMs: number): Promise<RateDecision> {
    this.latestNow = Math.max(this.latestNow, now);
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    const lists = windows.map((window) => this.prune(`${key}:${window.name}`, now, windowMs));
    const allowed = windows.every((window, i) => lists[i].length < window.limit);
    if (allowed) lists.forEach((list) => insertSorted(list, now));
    return {
      allowed,
      windows: windows.map((window, i) => {
        const list = lists[i];
        const excess = list.length - window.limit;
        return {
          ...window,
          count: list.length,
          oldest: list[0],
          // Room for one more once the entries up to index `excess` have left the window.
          retryAfterMs: !allowed && excess >= 0 ? list[excess] + windowMs - now : 0,
        };
      }),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.hits.clear();
  }

  /** Drops windows with nothing left in them, so memory follows the keys active in the last window. */
  sweep(): void {
    const cutoff = this.latestNow - this.longestWindowMs;
    for (const [id, list] of this.hits) {
      if (list.length === 0 || list[list.length - 1] <= cutoff) this.hits.delete(id);
    }
  }

  private prune(id: string, now: number, windowMs: number): number[] {
    let list = this.hits.get(id);
    if (!list) {
      list = [];
      this.hits.set(id, list);
    }
    let expired = 0;
    while (expired < list.length && list[expired] <= now - windowMs) expired++;
    if (expired > 0) list.splice(0, expired);
    return list;
  }
}

/** Keeps the list ascending even if the clock steps back (NTP), which pruning and retry times rely on. */
function insertSorted(list: number[], time: number): void {
  let at = list.length;
  while (at > 0 && list[at - 1] > time) at--;
  list.splice(at, 0, time);
}
