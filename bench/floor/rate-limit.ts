import type { ServerResponse } from 'node:http';
import { HttpError } from './http.js';

const WINDOW_MS = 60_000;

/** Request times of one key in one window, oldest first; a moving head avoids shifting the array on every request. */
class Times {
  private items: number[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  at(index: number): number {
    return this.items[this.head + index];
  }

  push(time: number): void {
    this.items.push(time);
  }

  dropUpTo(limit: number): void {
    while (this.head < this.items.length && this.items[this.head] <= limit) this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

interface Window {
  limit: number;
  times: Times;
}

/**
 * The service's limiter in a few lines: a true sliding window of 60 s per key, every request against "all",
 * writes also against "writes", counted in both or (when either is full) in neither.
 */
export class SlidingWindowLimiter {
  private readonly windows = new Map<string, Times>();

  constructor(
    private readonly allLimit: number,
    private readonly writesLimit: number,
  ) {}

  private times(key: string): Times {
    let times = this.windows.get(key);
    if (!times) {
      times = new Times();
      this.windows.set(key, times);
    }
    return times;
  }

  /** Counts the request and sets the X-RateLimit-* headers; throws 429 when a window is full. */
  consume(apiKeyId: string, isWrite: boolean, response: ServerResponse): void {
    const now = Date.now();
    const windows: Window[] = [{ limit: this.allLimit, times: this.times(`${apiKeyId}:all`) }];
    if (isWrite) windows.push({ limit: this.writesLimit, times: this.times(`${apiKeyId}:writes`) });
    for (const window of windows) window.times.dropUpTo(now - WINDOW_MS);
    const allowed = windows.every((window) => window.times.length < window.limit);
    if (allowed) for (const window of windows) window.times.push(now);

    const left = (window: Window): number => Math.max(0, window.limit - window.times.length);
    const retryAfter = (window: Window): number => {
      const excess = window.times.length - window.limit;
      return !allowed && excess >= 0 ? window.times.at(excess) + WINDOW_MS - now : 0;
    };
    const oldest = (window: Window): number =>
      window.times.length > 0 ? window.times.at(0) : Number.NEGATIVE_INFINITY;
    // The window that binds hardest: fewest left, then the longer wait, then the later reset.
    const binding = windows.reduce((hardest, window) => {
      if (left(window) !== left(hardest)) return left(window) < left(hardest) ? window : hardest;
      if (retryAfter(window) !== retryAfter(hardest))
        return retryAfter(window) > retryAfter(hardest) ? window : hardest;
      return oldest(window) > oldest(hardest) ? window : hardest;
    });
    const resetMs = binding.times.length === 0 ? now : binding.times.at(0) + WINDOW_MS;
    response.setHeader('X-RateLimit-Limit', binding.limit);
    response.setHeader('X-RateLimit-Remaining', left(binding));
    response.setHeader('X-RateLimit-Reset', Math.ceil(resetMs / 1000));
    if (!allowed) {
      const wait = Math.max(...windows.map(retryAfter));
      throw new HttpError(429, 'Rate limit exceeded', { 'Retry-After': Math.max(1, Math.ceil(wait / 1000)) });
    }
  }
}
