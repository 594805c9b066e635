import { describe, expect, it } from '@jest/globals';
import { presentFields } from './present-fields.js';

interface Body {
  name?: string;
  email?: string | null;
  status?: 'active' | 'inactive';
  tags?: string[];
}

describe(presentFields.name, () => {
  it('copies only the listed keys whose value is not undefined', () => {
    const body: Body = { name: 'Ann', email: undefined, tags: ['a'] };
    expect(presentFields(body, ['name', 'email', 'status'])).toEqual({ name: 'Ann' });
  });

  it('keeps null, empty strings and arrays (the same array) as given', () => {
    const tags: string[] = [];
    const body: Body = { name: '', email: null, tags };
    const fields = presentFields(body, ['name', 'email', 'tags']);
    expect(Object.entries(fields)).toEqual([
      ['name', ''],
      ['email', null],
      ['tags', tags],
    ]);
    expect(fields.tags).toBe(tags);
  });

  it('leaves out keys that are not listed, even when present', () => {
    const body = { name: 'Ann', id: 'client-chosen', teamId: 'other-team' };
    expect(Object.keys(presentFields(body, ['name']))).toEqual(['name']);
  });

  it('answers an empty object for an empty body and does not touch the source', () => {
    const body: Body = {};
    expect(presentFields(body, ['name', 'email'])).toEqual({});
    const full: Body = { name: 'Ann', status: 'inactive' };
    const fields = presentFields(full, ['status']);
    expect(fields).not.toBe(full);
    expect(full).toEqual({ name: 'Ann', status: 'inactive' });
  });

  it('follows the order of the listed keys, not the order of the source', () => {
    const body: Body = { status: 'active', name: 'Ann', email: 'ann@example.com' };
    expect(Object.keys(presentFields(body, ['name', 'email', 'status']))).toEqual(['name', 'email', 'status']);
  });
});
