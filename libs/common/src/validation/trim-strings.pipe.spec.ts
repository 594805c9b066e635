import { describe, expect, it } from '@jest/globals';
import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { TrimStringsPipe } from './trim-strings.pipe.js';

const body: ArgumentMetadata = { type: 'body' };
const sut = new TrimStringsPipe();

function refusal(value: unknown, metadata: ArgumentMetadata = body): string | undefined {
  try {
    sut.transform(value, metadata);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
}

describe(TrimStringsPipe.name, () => {
  it('trims every string at any depth, keeps key order and leaves the input untouched', () => {
    const input = { b: ' x ', a: [' y', { c: 'z ', d: 1, e: null }], f: true };
    expect(JSON.stringify(sut.transform(input, body))).toBe('{"b":"x","a":["y",{"c":"z","d":1,"e":null}],"f":true}');
    expect(input.b).toBe(' x ');
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    let deep: unknown = ' leaf ';
    for (let level = 0; level < 100_000; level++) deep = level % 2 === 0 ? [deep] : { a: deep };
    let result = sut.transform(deep, body);
    for (let level = 99_999; level >= 0; level--)
      result = level % 2 === 0 ? (result as unknown[])[0] : (result as { a: unknown }).a;
    expect(result).toBe('leaf');
  });

  it.each([
    ['{"__proto__":{"x":1}}', 'property __proto__ should not exist'],
    ['{"name":"a","constructor":1}', 'property constructor should not exist'],
    ['{"list":[{"ok":1},{"prototype":{}}]}', 'property list.1.prototype should not exist'],
    ['{"toString":null}', 'property toString should not exist'],
  ])('refuses the reserved property in %s by its path', (json, message) => {
    expect(refusal(JSON.parse(json))).toBe(message);
  });

  it('refuses reserved names in a query too, and a NUL anywhere', () => {
    const query = Object.assign(Object.create(null) as Record<string, string>, { valueOf: '1' });
    expect(refusal(query, { type: 'query' })).toBe('query parameter valueOf is not allowed');
    expect(refusal({ notes: ['ok', 'a\u0000b'] })).toBe('notes.1 must not contain NUL characters');
  });

  it('passes path parameters and custom arguments through unchanged', () => {
    expect(sut.transform(' id ', { type: 'param' })).toBe(' id ');
  });
});
