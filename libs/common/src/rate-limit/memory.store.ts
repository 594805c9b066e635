import { RateDecision, SlidingWindowStore, WindowLimit } from './sliding-window.store.js';

/** One process's windows: per key and window, the ascending times of the counted requests. */
export class MemorySlidingWindowStore extends SlidingWindowStore {
  private readonly hits = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepEveryMs = 60_000) {
    super();
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  async consume(key: string, windows: WindowLimit[], now: number, windowMs: number): Promise<RateDecision> {
    const lists = windows.map((window) => this.prune(`${key}:${window.name}`, now, windowMs));
    const allowed = windows.every((window, i) => lists[i].length < window.limit);
    if (allowed) lists.forEach((list) => list.push(now));
    return {
      allowed,
      windows: windows.map((window, i) => {
        const list = lists[i];
        const excess = list.length - window.limit;
        return {
          ...window,
          count: list.length,
          oldest: list[0],
          retryAfterMs: !allowed && excess >= 0 ? list[excess] + windowMs - now : 0,
        };
      }),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.hits.clear();
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

  /** Drops idle keys so memory follows active keys, not every key ever seen. */
  private sweep(): void {
    const cutoff = Date.now() - 24 * 60 * 60_000;
    for (const [id, list] of this.hits) {
      if (list.length === 0 || list[list.length - 1] < cutoff) this.hits.delete(id);
    }
  }
}
