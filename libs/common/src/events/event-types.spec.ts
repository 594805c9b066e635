import { EVENT_TYPES, previousAttributes } from './event-types.js';

describe('event types', () => {
  it('lists the 15 types: five records, created, updated and deleted', () => {
    expect(EVENT_TYPES).toHaveLength(15);
    expect(EVENT_TYPES).toContain('work_order.updated');
    expect(EVENT_TYPES).toContain('tenant.deleted');
  });
});

describe('previousAttributes', () => {
  it('holds the old values of the changed top-level fields, embedded objects compared deeply, never updatedAt', () => {
    const before = { id: 'a', name: 'Old', tenant: { id: 't', name: 'Ann' }, tags: ['x'], updatedAt: '1' };
    const after = { id: 'a', name: 'New', tenant: { id: 't', name: 'Ann' }, tags: ['x', 'y'], updatedAt: '2' };
    expect(previousAttributes(before, after)).toEqual({ name: 'Old', tags: ['x'] });
  });

  it('is empty when nothing but updatedAt changed, and keeps null old values', () => {
    expect(previousAttributes({ a: 1, updatedAt: '1' }, { a: 1, updatedAt: '2' })).toEqual({});
    expect(previousAttributes({ notes: null }, { notes: 'now set' })).toEqual({ notes: null });
  });
});
