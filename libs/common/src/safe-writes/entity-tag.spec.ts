import { describe, expect, it } from '@jest/globals';
import { entityTagOf, ifMatchHolds, ifNoneMatchFails } from './entity-tag.js';

describe(entityTagOf.name, () => {
  it('is a quoted, strong tag that follows every byte of the body', () => {
    const tag = entityTagOf('{"data":{"id":"a","name":"Ann"}}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTagOf('{"data":{"id":"a","name":"Ann"}}')).toBe(tag);
    expect(entityTagOf('{"data":{"id":"a","name":"Anne"}}')).not.toBe(tag);
  });
});

describe('preconditions', () => {
  const current = entityTagOf('{"data":{}}');
  const other = entityTagOf('{"data":{"x":1}}');

  it('If-Match holds for the current tag, one of a list, or *', () => {
    expect(ifMatchHolds(current, current)).toBe(true);
    expect(ifMatchHolds(`${other}, ${current}`, current)).toBe(true);
    expect(ifMatchHolds('*', current)).toBe(true);
    expect(ifMatchHolds(other, current)).toBe(false);
    expect(ifMatchHolds(`W/${current}`, current)).toBe(false);
  });

  it('If-None-Match compares weakly and fails on a match or *', () => {
    expect(ifNoneMatchFails(current, current)).toBe(true);
    expect(ifNoneMatchFails(`W/${current}`, current)).toBe(true);
    expect(ifNoneMatchFails('*', current)).toBe(true);
    expect(ifNoneMatchFails(`${other} , "x"`, current)).toBe(false);
  });
});
