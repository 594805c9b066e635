import { RateDecision, SlidingWindowStore, WindowLimit } from './sliding-window.store.js';

/**
 * The ascending times of one window's counted requests. Expired times are dropped by moving a head index, not by
 * shifting the array: at a high limit a window holds hundreds of thousands of times, and `splice(0, n)` on every
 * request moved them all (and reallocated the array as it grew back). The array is compacted once the dropped
 * part is over half of it.
 */
class TimeLog {
  private items: number[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  /** The `index`-th oldest time still in the window. */
  at(index: number): number {
    return this.items[this.head + index];
  }

  /** The newest time, or -Infinity when empty. */
  get newest(): number {
    return this.length > 0 ? this.items[this.items.length - 1] : Number.NEGATIVE_INFINITY;
  }

  dropUpTo(cutoff: number): void {
    while (this.head < this.items.length && this.items[this.head] <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    } else if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
  }

  /** Keeps the times ascending even if the clock steps back (NTP), which pruning and retry times rely on. */
  insert(time: number): void {
    let at = this.items.length;
    while (at > this.head && this.items[at - 1] > time) at--;
    if (at === this.items.length) this.items.push(time);
    else this.items.splice(at, 0, time);
  }
}

/** One process's windows: per key and window, the ascending times of the counted requests. */
export class MemorySlidingWindowStore extends SlidingWindowStore {
  private readonly hits = new Map<string, TimeLog>();
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
    const logs = windows.map((window) => this.prune(`${key}:${window.name}`, now, windowMs));
    const allowed = windows.every((window, i) => logs[i].length < window.limit);
    if (allowed) logs.forEach((log) => log.insert(now));
    return {
      allowed,
      windows: windows.map((window, i) => {
        const log = logs[i];
        const excess = log.length - window.limit;
        return {
          ...window,
          count: log.length,
          oldest: log.length > 0 ? log.at(0) : undefined,
          // Room for one more once the entries up to index `excess` have left the window.
          retryAfterMs: !allowed && excess >= 0 ? log.at(excess) + windowMs - now : 0,
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
    for (const [id, log] of this.hits) {
      if (log.newest <= cutoff) this.hits.delete(id);
    }
  }

  private prune(id: string, now: number, windowMs: number): TimeLog {
    let log = this.hits.get(id);
    if (!log) {
      log = new TimeLog();
      this.hits.set(id, log);
    }
    log.dropUpTo(now - windowMs);
    return log;
  }
}
