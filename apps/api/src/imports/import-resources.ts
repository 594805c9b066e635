import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { getMetadataArgsStorage } from 'typeorm';
import { announcingControllersOf, eventRecordOf, type ConditionalSource } from '@app/common';
import { collectionOf } from '../csv/index.js';
import { RESOURCES, type Resource } from '../resources.js';

/** A service that creates and updates a resource's records (the one its POST and PUT call). */
export interface WritesRecords extends ConditionalSource {
  create(teamId: string, dto: object): Promise<object>;
  /** `importedAt`: the import's time, for a service whose update sets a time from it (a work order's `resolvedAt`). */
  update(teamId: string, id: string, dto: object, importedAt?: Date): Promise<object>;
  /**
   * Optional: a create that also sets the fields only an import writes (`later`, validated by the PUT body's class)
   * in one statement; without it, an import creates the record and then updates it with them.
   */
  createImported?(teamId: string, dto: object, later: object, importedAt: Date): Promise<object>;
}

/** A reference by external id: the row's `from` field names records of `table` by their `externalRef`. */
export interface ExternalReference {
  from: string;
  to: string;
  table: string;
  list: boolean;
}

/** Everything an import needs of one resource, derived from its registration entry. */
export interface ImportTarget {
  /** Its name in paths and in `?resource=` (`work-orders`). */
  resource: string;
  /** The POST and PUT bodies' classes. */
  create: Type;
  update: Type;
  service: Type<WritesRecords>;
  /** Its table, for external ids and the `ANALYZE` after a large import. */
  table: string;
  /** Fields only an import writes (the entry's `csv.importOnly`): set by an update right after the create. */
  importOnly: readonly string[];
  /** Its record's name in camel case (`workOrder`): what other resources' `…Id` fields are named after. */
  record: string;
  /** Its example record's POST body (the registration entry's), which Swagger UI's pre-filled import is made of. */
  example: Record<string, unknown>;
}

/** The class of the `@Body()` of the controller's PUT handler, if it has one. */
function putBodyOf(controller: Type): Type | undefined {
  const prototype = controller.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const handler = prototype[name];
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.PUT) continue;
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
      string,
      { index: number }
    >;
    const body = Object.entries(args).find(([key]) => Number(key.split(':')[0]) === Number(RouteParamtypes.BODY));
    const types = Reflect.getMetadata('design:paramtypes', prototype, name) as Type[] | undefined;
    if (body && types) return types[body[1].index];
  }
  return undefined;
}

const camel = (snake: string): string => snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The importable resources of the registration list: each with an example record (its create body's class and
 * service) and a top-level `@ConditionalResource` controller with a PUT. Nothing here names a resource: a resource
 * made by `npm run generate:resource` is importable as registered.
 */
export function importTargetsOf(entries: Resource[]): Map<string, ImportTarget> {
  const targets = new Map<string, ImportTarget>();
  for (const entry of entries) {
    const resource = collectionOf(entry);
    const announcer = announcingControllersOf([entry.module]).find(
      ({ resource: options }) => (options.source as Type) === entry.example?.service && !options.parent,
    );
    const update = announcer && putBodyOf(announcer.controller);
    const table = getMetadataArgsStorage().tables.find((candidate) => candidate.target === entry.entities[0])?.name;
    if (!resource || !entry.example || !announcer || !update || !table) continue;
    targets.set(resource, {
      resource,
      create: entry.example.create,
      update,
      service: entry.example.service as Type<WritesRecords>,
      table,
      importOnly: entry.csv?.importOnly ?? [],
      record: camel(eventRecordOf(announcer.resource)),
      example: entry.example.record.body as Record<string, unknown>,
    });
  }
  return targets;
}

export const IMPORT_TARGETS: ReadonlyMap<string, ImportTarget> = importTargetsOf(RESOURCES);

/** The resources an import writes, as `?resource=` names them, in registration order. */
export const IMPORT_RESOURCES: readonly string[] = [...IMPORT_TARGETS.keys()];
export type ImportResource = string;

export function isImportResource(value: unknown): value is ImportResource {
  return typeof value === 'string' && IMPORT_TARGETS.has(value);
}

export function importTargetOf(resource: ImportResource): ImportTarget {
  const target = IMPORT_TARGETS.get(resource);
  if (!target) throw new Error(`${resource} is not an importable resource`);
  return target;
}

/**
 * The references by external id among an import's columns: `<record>ExternalRef` (`unitExternalRef`) names a record
 * of the resource whose record is `<record>` by its `externalRef`, resolved to `<record>Id`; `<record>ExternalRefs`
 * to `<record>Ids`.
 */
export function referencesOf(columns: Iterable<string>): ExternalReference[] {
  const references: ExternalReference[] = [];
  for (const column of columns) {
    const match = /^(.+)ExternalRef(s?)$/.exec(column);
    if (!match) continue;
    const [, record, plural] = match;
    const target = [...IMPORT_TARGETS.values()].find((candidate) => candidate.record === record);
    if (!target) continue;
    references.push({ from: column, to: `${record}Id${plural}`, table: target.table, list: plural === 's' });
  }
  return references;
}
