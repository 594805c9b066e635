import { describe, expect, it } from '@jest/globals';
import type { Actor } from '../auth/caller.js';
import { changesOf, historyWriteOf } from './history-entry.js';

const KEY: Actor = { type: 'api_key', id: 'a4b0c3f2-0000-4000-8000-000000000001', name: 'Front desk' };
const ID = '0c8f6a1e-2b3d-4e5f-8a9b-0c1d2e3f4a5b';
const NOTE = '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918';

describe(historyWriteOf.name, () => {
  it('files a created event as `created` on the object, with its actor and no changes', () => {
    expect(historyWriteOf('inspection.created', { id: ID, title: 'Tap' }, undefined, { actor: KEY })).toEqual({
      kind: 'entry',
      record: 'inspection',
      recordId: ID,
      type: 'created',
      actor: KEY,
      changes: null,
      subjectId: null,
    });
  });

  it('files an updated event as `updated` with each changed field from the old value to the new', () => {
    const after = { id: ID, status: 'in_progress', priority: '1', updatedAt: '2026-11-21T09:00:00.000Z' };
    const write = historyWriteOf('inspection.updated', after, { status: 'reported' }, { actor: KEY });
    expect(write).toMatchObject({ type: 'updated', changes: { status: { from: 'reported', to: 'in_progress' } } });
  });

  it('writes `{}` for an update that changed nothing, and for one with no previous attributes at all', () => {
    expect(historyWriteOf('site.updated', { id: ID }, {}, { actor: KEY })).toMatchObject({ changes: {} });
    expect(historyWriteOf('site.updated', { id: ID }, undefined, { actor: KEY })).toMatchObject({ changes: {} });
  });

  it('names the service itself when no actor is given', () => {
    expect(historyWriteOf('site.created', { id: ID }, undefined)).toMatchObject({ actor: { type: 'system' } });
  });

  it('forgets the history of a deleted record', () => {
    expect(historyWriteOf('owner.deleted', { id: ID }, undefined, { actor: KEY })).toEqual({
      kind: 'forget',
      record: 'owner',
      recordId: ID,
    });
  });

  it.each([
    ['inspection_note.created', 'note_added'],
    ['inspection_note.updated', 'note_updated'],
    ['inspection_note.deleted', 'note_deleted'],
    ['photo.created', 'photo_added'],
    ['photo.deleted', 'photo_deleted'],
  ] as const)('files %s of a part as %s on the parent, the part as its subject', (type, entry) => {
    const write = historyWriteOf(
      type,
      { id: NOTE, text: 'Called the caller back' },
      { text: 'x' },
      {
        actor: KEY,
        parent: { record: 'inspection', id: ID },
      },
    );
    expect(write).toEqual({
      kind: 'entry',
      record: 'inspection',
      recordId: ID,
      type: entry,
      actor: KEY,
      changes: null,
      subjectId: NOTE,
    });
  });

  it('writes nothing for an object without an id', () => {
    expect(historyWriteOf('site.created', { name: 'x' }, undefined)).toBeUndefined();
  });
});

describe(changesOf.name, () => {
  it('pairs each old value with the new one, nested values and null included, never updatedAt', () => {
    const after = { tags: ['a', 'b'], address: null, name: 'New', updatedAt: 'later' };
    expect(changesOf(after, { tags: ['a'], address: { city: 'Bristol' }, name: 'Old', updatedAt: 'then' })).toEqual({
      tags: { from: ['a'], to: ['a', 'b'] },
      address: { from: { city: 'Bristol' }, to: null },
      name: { from: 'Old', to: 'New' },
    });
  });

  it('reads a field the new object no longer has as null', () => {
    expect(changesOf({}, { gone: 1 })).toEqual({ gone: { from: 1, to: null } });
  });
});
