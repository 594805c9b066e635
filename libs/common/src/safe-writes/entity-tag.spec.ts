import { describe, expect, it } from '@jest/globals';
import { entityTagOf, entityTagOfAnswer, ifMatchHolds, ifNoneMatchFails } from './entity-tag.js';

describe(entityTagOf.name, () => {
  it('is a quoted, strong tag that follows every byte of the body', () => {
    const tag = entityTagOf('{"data":{"id":"a","name":"Ann"}}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTagOf('{"data":{"id":"a","name":"Ann"}}')).toBe(tag);
    expect(entityTagOf('{"data":{"id":"a","name":"Anne"}}')).not.toBe(tag);
  });
});

describe(entityTagOfAnswer.name, () => {
  const answer = (url: string, name = 'plan.pdf') => ({ data: { id: 'a', name, url, urlExpiresAt: url.slice(-2) } });

  it('is the bytes’ tag when no field is left out', () => {
    const body = answer('https://x/1?e=10');
    expect(entityTagOfAnswer(body)).toBe(entityTagOf(JSON.stringify(body)));
    expect(entityTagOfAnswer(body, [], '{"data":{}}')).toBe(entityTagOf('{"data":{}}'));
  });

  it('leaves the untagged fields out, and still follows every other one', () => {
    const untagged = ['url', 'urlExpiresAt'];
    const tag = entityTagOfAnswer(answer('https://x/1?e=10'), untagged);
    expect(entityTagOfAnswer(answer('http://localhost/1?e=11'), untagged)).toBe(tag);
    expect(entityTagOfAnswer(answer('https://x/1?e=10', 'plan2.pdf'), untagged)).not.toBe(tag);
    expect(tag).toBe(entityTagOf('{"data":{"id":"a","name":"plan.pdf"}}'));
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
