import { describe, expect, it } from '@jest/globals';
import { RememberedByVersion } from './remembered-by-version.js';

describe(RememberedByVersion.name, () => {
  it('answers with the last value remembered for a key, with its version', () => {
    const totals = new RememberedByVersion<number>(10);
    expect(totals.get('team filter')).toBeUndefined();
    totals.remember('team filter', '7.1234', 42);
    totals.remember('team filter', '8.1240', 43);
    expect(totals.get('team filter')).toEqual({ version: '8.1240', value: 43 });
    expect(totals.size).toBe(1);
  });

  it('forgets the least recently used key beyond its capacity', () => {
    const totals = new RememberedByVersion<number>(2);
    totals.remember('a', '1.1', 1);
    totals.remember('b', '1.1', 2);
    expect(totals.get('a')?.value).toBe(1); // a is now more recent than b
    totals.remember('c', '1.1', 3);
    expect(totals.size).toBe(2);
    expect(totals.get('b')).toBeUndefined();
    expect(totals.get('a')?.value).toBe(1);
    expect(totals.get('c')?.value).toBe(3);
  });
});
