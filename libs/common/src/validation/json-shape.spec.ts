import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { findJsonShapeViolation } from './json-shape.js';

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/** Depth and entries of a parsed value, counted without recursion: the reference the byte scan must match. */
function measure(value: unknown): { depth: number; entries: number } {
  let depth = 0;
  let entries = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, level] = next;
    if (item === null || typeof item !== 'object') continue;
    depth = Math.max(depth, level);
    const children = Array.isArray(item) ? item : Object.values(item);
    entries += children.length;
    for (const child of children) stack.push([child, level + 1]);
  }
  return { depth, entries };
}

describe(findJsonShapeViolation.name, () => {
  it('finds exactly the depth and entry count of any JSON text, whitespace and escapes included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, '\t'), (value, space) => {
        const bytes = utf8(JSON.stringify(value, null, space));
        const { depth, entries } = measure(value);
        expect(findJsonShapeViolation(bytes, { depth, entries })).toBeUndefined();
        if (depth > 0) expect(findJsonShapeViolation(bytes, { depth: depth - 1, entries })?.rule).toBe('depth');
        if (entries > 0) expect(findJsonShapeViolation(bytes, { depth, entries: entries - 1 })?.rule).toBe('entries');
      }),
      { numRuns: 500 },
    );
  });

  it('ignores brackets, commas and escaped quotes inside strings, in any script', () => {
    const text = JSON.stringify({ a: '[[[{{{,,,\\"]]]}}}', b: ['é€😀', '\\', '"'] });
    // a, b and b's three items.
    expect(findJsonShapeViolation(utf8(text), { depth: 2, entries: 5 })).toBeUndefined();
    expect(findJsonShapeViolation(utf8(text), { depth: 1, entries: 5 })?.rule).toBe('depth');
  });

  it('names the limit in its message', () => {
    expect(findJsonShapeViolation(utf8('[[[]]]'), { depth: 2, entries: 10 })).toEqual({
      rule: 'depth',
      limit: 2,
      message: 'Request body nests objects and arrays deeper than 2 levels',
    });
    expect(findJsonShapeViolation(utf8('[1,2,3]'), { depth: 2, entries: 2 })?.message).toBe(
      'Request body holds more than 2 properties and array items in total',
    );
  });

  it('stops at the limit on text nested far deeper, and never throws on text that is not JSON', () => {
    expect(findJsonShapeViolation(utf8('['.repeat(1_000_000)))?.rule).toBe('depth');
    for (const junk of ['', '}}}]]]', '"unterminated', '{"a":', '\\', ',,,,'])
      expect(() => findJsonShapeViolation(utf8(junk))).not.toThrow();
  });
});
