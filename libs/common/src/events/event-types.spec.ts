import { Controller, Module } from '@nestjs/common';
import { ConditionalResource } from '../safe-writes/conditional-resource.js';
import { eventRecordsOf, eventTypesOf, previousAttributes } from './event-types.js';

class Source {
  get = (): Promise<object> => Promise.resolve({});
  lock = (): Promise<boolean> => Promise.resolve(true);
}

@ConditionalResource({ source: Source, idParam: 'visitId', name: 'Site visit' })
@Controller('site-visits')
class SiteVisitsController {}

@ConditionalResource({ source: Source, idParam: 'noteId', name: 'Note', event: 'memo' })
@Controller('notes')
class NotesController {}

@Controller('status')
class StatusController {}

@Module({ controllers: [StatusController, SiteVisitsController, NotesController] })
class RecordsModule {}

@Module({})
class EmptyModule {}

describe('event types', () => {
  it("reads a module's announcing controllers: the name in snake case unless the controller names one", () => {
    expect(eventRecordsOf(RecordsModule)).toEqual([
      { record: 'site_visit', name: 'Site visit' },
      { record: 'memo', name: 'Note' },
    ]);
    expect(eventRecordsOf(EmptyModule)).toEqual([]);
  });

  it('gives each record created, updated and deleted, in order', () => {
    expect(eventTypesOf(['site_visit', 'memo'])).toEqual([
      'site_visit.created',
      'site_visit.updated',
      'site_visit.deleted',
      'memo.created',
      'memo.updated',
      'memo.deleted',
    ]);
  });

  it('gives a record that declares its actions only those, in the usual order', () => {
    @ConditionalResource({ source: Source, idParam: 'fileId', name: 'File', actions: ['deleted', 'created'] })
    @Controller('files')
    class FilesController {}
    @Module({ controllers: [FilesController] })
    class FilesModule {}
    const records = eventRecordsOf(FilesModule);
    expect(records).toEqual([{ record: 'file', name: 'File', actions: ['deleted', 'created'] }]);
    expect(eventTypesOf(records)).toEqual(['file.created', 'file.deleted']);
  });
});

describe('previousAttributes', () => {
  it('holds the old values of the changed top-level fields, embedded objects compared deeply, never updatedAt', () => {
    const before = { id: 'a', name: 'Old', owner: { id: 't', name: 'Ann' }, tags: ['x'], updatedAt: '1' };
    const after = { id: 'a', name: 'New', owner: { id: 't', name: 'Ann' }, tags: ['x', 'y'], updatedAt: '2' };
    expect(previousAttributes(before, after)).toEqual({ name: 'Old', tags: ['x'] });
  });

  it('is empty when nothing but updatedAt changed, and keeps null old values', () => {
    expect(previousAttributes({ a: 1, updatedAt: '1' }, { a: 1, updatedAt: '2' })).toEqual({});
    expect(previousAttributes({ notes: null }, { notes: 'now set' })).toEqual({ notes: null });
  });
});
