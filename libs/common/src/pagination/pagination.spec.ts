import { describe, expect, it } from '@jest/globals';
import { containsPattern, pageOf } from './pagination.response.js';

describe(pageOf.name, () => {
  it.each([
    [0, 20, 0],
    [1, 20, 1],
    [20, 20, 1],
    [21, 20, 2],
    [100, 50, 2],
    [101, 50, 3],
    [7, 1, 7],
  ])('total %i at pageSize %i makes %i pages', (total, pageSize, pageCount) => {
    expect(pageOf([], total, { page: 1, pageSize }).pagination.pageCount).toBe(pageCount);
  });

  it('returns the rows as given with the requested page, even past the end', () => {
    const rows = [{ id: 'a' }];
    expect(pageOf(rows, 3, { page: 9, pageSize: 2 })).toEqual({
      data: rows,
      pagination: { total: 3, page: 9, pageSize: 2, pageCount: 2 },
    });
  });
});

describe(containsPattern.name, () => {
  it('means no filter for an empty or absent term', () => {
    expect(containsPattern('')).toBeUndefined();
    expect(containsPattern(undefined)).toBeUndefined();
  });

  it('wraps a plain term in %', () => {
    expect(containsPattern('Acme')).toBe('%Acme%');
  });

  it.each([
    ['50%', '%50\\%%'],
    ['a_b', '%a\\_b%'],
    ['C:\\dir', '%C:\\\\dir%'],
    ['%_\\', '%\\%\\_\\\\%'],
  ])('escapes the LIKE metacharacters in %j', (term, pattern) => {
    expect(containsPattern(term)).toBe(pattern);
  });
});
