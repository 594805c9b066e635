import { describe, expect, it } from '@jest/globals';
import { bindingWindow } from './rate-limiter.js';
import type { WindowState } from './sliding-window.store.js';

const window = (name: string, limit: number, count: number, oldest: number, retryAfterMs = 0): WindowState => ({
  name,
  limit,
  count,
  oldest,
  retryAfterMs,
});

describe(bindingWindow.name, () => {
  it('shows the window with fewer requests left', () => {
    expect(bindingWindow([window('all', 200, 1, 0), window('writes', 30, 1, 0)]).name).toBe('writes');
    expect(bindingWindow([window('all', 200, 195, 0), window('writes', 30, 1, 0)]).name).toBe('all');
  });

  it('on a refusal, shows the full window, and of two full ones the one that stays closed longer', () => {
    expect(bindingWindow([window('all', 200, 200, 0, 1_000), window('writes', 30, 3, 0)]).name).toBe('all');
    expect(bindingWindow([window('all', 200, 200, 0, 1_000), window('writes', 30, 30, 5, 9_000)]).name).toBe('writes');
    expect(bindingWindow([window('all', 200, 200, 9, 9_000), window('writes', 30, 30, 0, 1_000)]).name).toBe('all');
  });

  it('counts an over-full window (limit lowered) as nothing left, not less than nothing', () => {
    const overFull = window('all', 10, 12, 0, 1_000);
    const full = window('writes', 5, 5, 0, 5_000);
    expect(bindingWindow([overFull, full]).name).toBe('writes');
  });

  it('of two windows with as many left, shows the one whose oldest request leaves later', () => {
    expect(bindingWindow([window('all', 30, 10, 2_000), window('writes', 30, 10, 1_000)]).name).toBe('all');
    expect(bindingWindow([window('all', 30, 10, 1_000), window('writes', 30, 10, 2_000)]).name).toBe('writes');
  });
});
