import { Injectable, Logger, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import {
  createValidationPipe,
  describeFailure,
  eventObjectOf,
  eventRecordOf,
  lockedRecord,
  previousAttributes,
  TrimStringsPipe,
  type Actor,
  type EventType,
} from '@app/common';
import { EventsStore } from '../events/index.js';
import { ResourceCsvs } from '../exports/index.js';
import { announcerOf } from '../resources.js';
import { importTargetOf, referencesOf, type ExternalReference, type ImportResource } from './import-resources.js';
import { ImportsRepository, type StoredImportRow } from './imports.repository.js';

/** A row that fails: its error as the POST (or PUT) would answer it. */
export class ImportRowError extends Error {}

/** What one import writes with: its team, id, resource, and its time (a `completed` work order is resolved at it). */
export interface ImportScope {
  teamId: string;
  importId: string;
  resource: ImportResource;
  importedAt: Date;
  /**
   * The batch's records by external id, read once for all its rows (`knownRecords`) and kept up to date as rows
   * create records; without it, each row reads its own.
   */
  known?: Map<string, string>;
  /**
   * The records the batch's rows reference by external id, by table (`referencedRecords`), read once for all its
   * rows; a table not here (the import's own: its rows may create what later rows name) is read row by row.
   */
  referenced?: Map<string, Map<string, string>>;
}

const trim = new TrimStringsPipe();
const validation = createValidationPipe();

/**
 * Writes one row of an import as its resource's POST (or, when its `externalRef` already names a record of the
 * team, its PUT) would: the body trimmed and validated by the same DTOs and pipe, written by the resource's own
 * service (so every rule and 409 holds), with the record's event and history entry, actor the import. References
 * by external id are resolved to ids within the team first. Runs in the caller's transaction; a failing row throws
 * `ImportRowError` with the error text the request would have had.
 */
@Injectable()
export class ImportRowWriter {
  private readonly log = new Logger('Imports');
  /** Each resource's references by external id, from its import columns (read once). */
  private readonly references = new Map<ImportResource, ExternalReference[]>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly imports: ImportsRepository,
    private readonly events: EventsStore,
    private readonly csvs: ResourceCsvs,
  ) {}

  async write(manager: EntityManager, scope: ImportScope, row: StoredImportRow): Promise<'created' | 'updated'> {
    try {
      return await this.writeRow(manager, scope, row);
    } catch (error) {
      if (error instanceof ImportRowError) throw error;
      const failure = describeFailure(error);
      // The database is unreachable: the batch is retried, not the row failed.
      if (!failure || failure.status === 503) {
        if (!failure) this.log.error(`import ${scope.importId} row ${row.row}: ${(error as Error).stack}`);
        if (failure) throw error;
        throw new ImportRowError('Internal server error');
      }
      throw new ImportRowError(failure.error);
    }
  }

  private async writeRow(manager: EntityManager, scope: ImportScope, row: StoredImportRow) {
    if (row.parseError !== null || row.body === null) throw new ImportRowError(row.parseError ?? 'Empty row');
    const target = importTargetOf(scope.resource);
    const body = (await trim.transform(structuredClone(row.body), { type: 'body' })) as Record<string, unknown>;
    await this.resolveReferences(manager, scope, body);
    const existing = await this.existingId(manager, scope, body.externalRef);
    const service = this.moduleRef.get(target.service, { strict: false });
    const resource = announcerOf(target.service);
    if (!resource) throw new Error(`no controller announces ${target.service.name}`);
    const actor: Actor = { type: 'import', id: scope.importId };
    if (existing === undefined) {
      // Fields only an import writes (a work order's status: its POST takes none) are set as given: in the
      // create's own statement when the service offers `createImported`, otherwise by an update right after it.
      const fields = { ...body };
      const later: Record<string, unknown> = {};
      for (const name of target.importOnly) {
        if (!(name in fields)) continue;
        later[name] = fields[name];
        delete fields[name];
      }
      const dto = await this.validated(fields, target.create);
      const laterDto = Object.keys(later).length > 0 ? await this.validated(later, target.update) : undefined;
      let record: { id: string };
      if (laterDto && service.createImported) {
        record = (await service.createImported(scope.teamId, dto, laterDto, scope.importedAt)) as { id: string };
      } else {
        record = (await service.create(scope.teamId, dto)) as { id: string };
        if (laterDto)
          record = (await service.update(scope.teamId, record.id, laterDto, scope.importedAt)) as { id: string };
      }
      if (typeof body.externalRef === 'string' && body.externalRef !== '')
        scope.known?.set(body.externalRef, record.id);
      const object = eventObjectOf(resource, record);
      await this.record(manager, scope, `${eventRecordOf(resource)}.created`, object, undefined, actor);
      return 'created';
    }
    const dto = await this.validated(body, target.update);
    const before = await lockedRecord(service, scope.teamId, existing);
    const record = await service.update(scope.teamId, existing, dto, scope.importedAt);
    const object = eventObjectOf(resource, record);
    const changes = before ? previousAttributes(before, object) : undefined;
    await this.record(manager, scope, `${eventRecordOf(resource)}.updated`, object, changes, actor);
    return 'updated';
  }

  private async record(
    manager: EntityManager,
    scope: ImportScope,
    type: string,
    object: object,
    changes: Record<string, unknown> | undefined,
    actor: Actor,
  ): Promise<void> {
    await this.events.record(manager, scope.teamId, type as EventType, object, changes, { actor });
  }

  /** The body as the route's validation pipe makes it, or the 400's text. */
  private async validated(body: object, metatype: Type): Promise<object> {
    try {
      return (await validation.transform(body, { type: 'body', metatype })) as object;
    } catch (error) {
      throw new ImportRowError(describeFailure(error)?.error ?? 'Invalid row');
    }
  }

  /** The record of the team that the row's `externalRef` names, when there is one (the row updates it). */
  private async existingId(manager: EntityManager, scope: ImportScope, externalRef: unknown) {
    if (typeof externalRef !== 'string' || externalRef === '') return undefined;
    if (scope.known) return scope.known.get(externalRef);
    const table = importTargetOf(scope.resource).table;
    return (await this.imports.idsByExternalRef(manager, scope.teamId, table, [externalRef])).get(externalRef);
  }

  private referencesOf(resource: ImportResource): ExternalReference[] {
    let references = this.references.get(resource);
    if (!references) {
      references = referencesOf(this.csvs.importColumnsOf(resource)?.columns.keys() ?? []);
      this.references.set(resource, references);
    }
    return references;
  }

  /** The team's records named by the rows' external ids (trimmed, as each row's body is), in one read. */
  async knownRecords(
    manager: EntityManager,
    scope: ImportScope,
    rows: StoredImportRow[],
  ): Promise<Map<string, string>> {
    const table = importTargetOf(scope.resource).table;
    return this.idsOf(manager, scope.teamId, table, this.refsOf(rows, 'externalRef'));
  }

  /**
   * The records of other tables that the rows name by external id (`unitExternalRef`, `unitExternalRefs`…), one read
   * per table for the whole batch.
   */
  async referencedRecords(
    manager: EntityManager,
    scope: ImportScope,
    rows: StoredImportRow[],
  ): Promise<Map<string, Map<string, string>>> {
    const own = importTargetOf(scope.resource).table;
    const refsByTable = new Map<string, Set<string>>();
    for (const reference of this.referencesOf(scope.resource)) {
      if (reference.table === own) continue;
      const refs = refsByTable.get(reference.table) ?? new Set<string>();
      refsByTable.set(reference.table, refs);
      for (const ref of this.refsOf(rows, reference.from, { inArrays: true })) refs.add(ref);
    }
    const referenced = new Map<string, Map<string, string>>();
    for (const [table, refs] of refsByTable)
      referenced.set(table, await this.idsOf(manager, scope.teamId, table, refs));
    return referenced;
  }

  /**
   * The external ids in the rows' `field`, trimmed as each row's body is, empty ones left out; `inArrays`: the strings
   * of an array value too. Rows are not validated yet: anything else there is left for the row's own write to fail.
   */
  private refsOf(rows: StoredImportRow[], field: string, { inArrays = false } = {}): Set<string> {
    const refs = new Set<string>();
    for (const row of rows) {
      const value = row.body?.[field];
      for (const ref of inArrays && Array.isArray(value) ? (value as unknown[]) : [value]) {
        if (typeof ref === 'string' && ref.trim() !== '') refs.add(ref.trim());
      }
    }
    return refs;
  }

  /** The team's records of `table` by these external ids, in one read (none for no ids). */
  private async idsOf(
    manager: EntityManager,
    teamId: string,
    table: string,
    refs: Set<string>,
  ): Promise<Map<string, string>> {
    if (refs.size === 0) return new Map();
    return this.imports.idsByExternalRef(manager, teamId, table, [...refs]);
  }

  /** `unitExternalRef` → `unitId` (and the others), by the team's records' external ids; unknown ones fail the row. */
  private async resolveReferences(manager: EntityManager, scope: ImportScope, body: Record<string, unknown>) {
    for (const reference of this.referencesOf(scope.resource)) {
      if (!(reference.from in body)) continue;
      const value = body[reference.from];
      delete body[reference.from];
      if (reference.to in body) throw new ImportRowError(`Give ${reference.to} or ${reference.from}, not both`);
      if (value === null && !reference.list) {
        body[reference.to] = null;
        continue;
      }
      const refs = reference.list ? value : [value];
      if (!Array.isArray(refs) || refs.some((ref) => typeof ref !== 'string')) {
        const shape = reference.list ? 'an array of strings' : 'a string';
        throw new ImportRowError(`${reference.from} must be ${shape}`);
      }
      const ids =
        scope.referenced?.get(reference.table) ??
        (await this.imports.idsByExternalRef(manager, scope.teamId, reference.table, refs as string[]));
      const unknown = (refs as string[]).filter((ref) => !ids.has(ref));
      if (unknown.length > 0) {
        throw new ImportRowError(
          `${reference.from} names no record of the team: ${unknown.map((ref) => JSON.stringify(ref)).join(', ')}`,
        );
      }
      const resolved = (refs as string[]).map((ref) => ids.get(ref) as string);
      body[reference.to] = reference.list ? resolved : resolved[0];
    }
  }
}
