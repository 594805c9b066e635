import { parseSchedule, retryDelay } from './retry-schedule.js';

describe('webhook retry schedule', () => {
  it('reads the default schedule', () => {
    expect(parseSchedule('5s,5m,30m,2h,5h,10h,10h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(parseSchedule(' 100ms , 1d')).toEqual([100, 86_400_000]);
    expect(() => parseSchedule('5 minutes')).toThrow('not a duration');
  });

  it('jitters each wait by at most 10 % either way, and ends after the last retry', () => {
    const schedule = [1_000, 60_000];
    expect(retryDelay(schedule, 1, () => 0)).toBe(900);
    expect(retryDelay(schedule, 1, () => 1)).toBe(1_100);
    expect(retryDelay(schedule, 2, () => 0.5)).toBe(60_000);
    expect(retryDelay(schedule, 3)).toBeUndefined();
  });
});
