import { Global, Module, RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { collectionOf, type CsvResourceEntry } from '../csv/index.js';
import { CSV_EXPORT, CsvExportInterceptor } from './csv-export.interceptor.js';
import { ResourceCsvs } from './resource-csvs.js';

/** The collection's list handler (`GET /v1/<resource>`) of the entry's resource, if it has one. */
function collectionListOf(entry: CsvResourceEntry, resource: string): object | undefined {
  const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, entry.module) ?? []) as Type[];
  const controller = controllers.find((candidate) => Reflect.getMetadata(PATH_METADATA, candidate) === resource);
  const prototype = (controller?.prototype ?? {}) as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .map((key) => prototype[key])
    .find(
      (method): method is object =>
        typeof method === 'function' &&
        Reflect.getMetadata(METHOD_METADATA, method) === RequestMethod.GET &&
        ['/', ''].includes(Reflect.getMetadata(PATH_METADATA, method) as string),
    );
}

/**
 * CSV exports (docs/exports.md): the list of every registered resource's collection answers `Accept: text/csv`
 * through `CsvExportInterceptor`, put on each list handler here (before Nest reads the controllers), so a resource
 * added to the registration list exports with no code of its own. Global: the import reads `ResourceCsvs` too.
 */
@Global()
@Module({})
export class ExportsModule {
  static forResources(entries: CsvResourceEntry[]): DynamicModule {
    for (const entry of entries) {
      const resource = collectionOf(entry);
      const list = resource && collectionListOf(entry, resource);
      if (!resource || !list) continue;
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, list) ?? []) as unknown[];
      if (!interceptors.includes(CsvExportInterceptor)) {
        Reflect.defineMetadata(INTERCEPTORS_METADATA, [...interceptors, CsvExportInterceptor], list);
      }
      Reflect.defineMetadata(CSV_EXPORT, resource, list);
    }
    return {
      module: ExportsModule,
      providers: [{ provide: ResourceCsvs, useFactory: () => new ResourceCsvs(entries) }],
      exports: [ResourceCsvs],
    };
  }
}
