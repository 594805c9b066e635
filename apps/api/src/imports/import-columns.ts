import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Type } from '@nestjs/common';
import { csvCellKindOf, type CsvCellKind, type CsvFieldSchema } from '@app/common';
import { IMPORT_TARGETS, type ImportResource } from './import-resources.js';

/** An import's CSV columns: the ones it reads (with each cell's kind) and the output-only ones it ignores. */
export interface ImportColumns {
  columns: Map<string, CsvCellKind>;
  ignored: Set<string>;
}

interface SchemaFactory {
  exploreModelSchema(type: Type, schemas: Record<string, object>): string;
}

/**
 * The factory `SwaggerModule.createDocument` builds models' schemas with: the same schema the OpenAPI document gives
 * each field. Not among the package's exports, so loaded by its path (to be replaced by the exports' column list).
 */
async function loadSchemaFactory(): Promise<() => SchemaFactory> {
  const services = join(dirname(createRequire(import.meta.url).resolve('@nestjs/swagger')), 'services');
  type Constructor<T> = new (...args: unknown[]) => T;
  const load = async <T>(file: string, name: string): Promise<Constructor<T>> =>
    ((await import(pathToFileURL(join(services, file)).href)) as Record<string, Constructor<T>>)[name];
  const Factory = await load<SchemaFactory>('schema-object-factory.js', 'SchemaObjectFactory');
  const Accessor = await load<object>('model-properties-accessor.js', 'ModelPropertiesAccessor');
  const Mapper = await load<object>('swagger-types-mapper.js', 'SwaggerTypesMapper');
  return () => new Factory(new Accessor(), new Mapper());
}

const swaggerSchemaFactory = await loadSchemaFactory();

type ModelSchema = CsvFieldSchema & { properties?: Record<string, CsvFieldSchema> };

/** The OpenAPI schemas of a DTO class and of the classes it names, as the document describes them. */
function schemasOf(dto: Type): Record<string, ModelSchema> {
  const schemas: Record<string, ModelSchema> = {};
  swaggerSchemaFactory().exploreModelSchema(dto, schemas);
  return schemas;
}

const cache = new Map<ImportResource, ImportColumns>();

/**
 * The columns of a resource's import (CONTRACT "Imports and exports"): every field its PUT (update DTO, which has
 * every POST field and a work order's `status`) takes, plus the references by external id; the fields only its
 * answer has (`id`, `teamId`, `createdAt`, …) are ignored. Each column's cell kind comes from its OpenAPI schema
 * (`csvCellKindOf`). One function, so the exports' column list can replace it.
 */
export function importColumnsOf(resource: ImportResource): ImportColumns {
  const known = cache.get(resource);
  if (known) return known;
  const target = IMPORT_TARGETS[resource];
  const schemas = schemasOf(target.update);
  const resolve = (reference: string) => schemas[reference.split('/').at(-1) ?? ''];
  const columns = new Map<string, CsvCellKind>();
  for (const [name, schema] of Object.entries(schemas[target.update.name]?.properties ?? {})) {
    columns.set(name, csvCellKindOf(schema, resolve));
  }
  for (const reference of target.references) columns.set(reference.from, reference.list ? 'list' : 'text');
  const output = Object.keys(schemasOf(target.response)[target.response.name]?.properties ?? {});
  const result = { columns, ignored: new Set(output.filter((name) => !columns.has(name))) };
  cache.set(resource, result);
  return result;
}
