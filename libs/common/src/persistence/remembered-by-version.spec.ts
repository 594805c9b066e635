import { describe, expect, it } from '@jest/globals';
import { RememberedByVersion } from './remembered-by-version.js';

describe(RememberedByVersion.name, () => {
  it('answers with the last value remembered for a key, with its version', () => {
    const totals = new RememberedByVersion<number>(10);
    expect(totals.get('team filter')).toBeUndefined();
    totals.remember('team filter', '7.1234', 42);
    totals.remember('team filter', '8.1240', 43);
    expect(totals.get('team filter')).toMatchObject({ version: '8.1240', value: 43 });
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

  it('weighs values when told to, and keeps the total weight within its capacity', () => {
    const pages = new RememberedByVersion<string[]>(5, (rows) => rows.length);
    pages.remember('p1', '1.1', ['a', 'b']);
    pages.remember('p2', '1.1', ['c', 'd']);
    pages.remember('p3', '1.1', ['e', 'f']); // 6 rows: p1 goes
    expect(pages.get('p1')).toBeUndefined();
    expect(pages.size).toBe(2);
    pages.remember('p2', '1.2', ['c']); // replacing p2 frees a row: 3 in all
    pages.remember('empty', '1.2', []); // an empty page still counts as 1
    expect(pages.size).toBe(3);
    pages.remember('huge', '1.2', ['1', '2', '3', '4', '5', '6']); // heavier than the whole capacity: not kept
    expect(pages.get('huge')).toBeUndefined();
    expect(pages.get('p3')?.value).toEqual(['e', 'f']);
  });
});
