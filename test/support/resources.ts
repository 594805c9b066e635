import type { Type } from '@nestjs/common';
import { getMetadataArgsStorage } from 'typeorm';
import { openApiDocumentOf } from '../../apps/api/src/core/configure-app.js';
import { EVENT_RECORDS, RESOURCES, type Resource } from '../../apps/api/src/resources.js';
import { operationsOf, resolveSchema, type OpenApiDocument, type Schema } from '../reliability/openapi.js';
import { sampleObject } from '../reliability/team-records.js';
import { resourceApi, type ResourceApi } from './resource-api.js';
import type { Team, TestApp } from './test-app.js';

/**
 * One resource of the API as the table-driven contract suite (test/contract.e2e-spec.ts) sees it. Everything
 * here is derived from the app's own registration list (`RESOURCES` in apps/api/src/resources.ts), so a
 * resource added there, by hand or by `npm run generate:resource`, is under the contract with no line of its own.
 */
export interface ResourceUnderTest {
  /** The collection path: `/v1/work-orders`. */
  path: string;
  /** The item path's parameter: `workOrderId` (it names the field in "workOrderId must be a UUID"). */
  idParam: string;
  /** The text of its 404: `Work order not found`. */
  notFound: string;
  /** The table its rows live in: `work_orders`. */
  table: string;
  /** Its event types' prefix (`work_order` → `work_order.created`), when it announces its changes. */
  eventType?: string;
  api: ResourceApi<RecordBody>;
}

export interface RecordBody {
  id: string;
  teamId: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** `WorkOrder` → `['work', 'order']`. */
const wordsOf = (className: string): string[] =>
  className
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');

function underTest({ module, entities }: Resource): ResourceUnderTest | undefined {
  const controllers = (Reflect.getMetadata('controllers', module) ?? []) as Type[];
  // The resource's own collection: a path with no parameter (a nested controller, as a work order's notes at
  // `work-orders/:workOrderId/notes`, is a part of the resource, not another one).
  const collection = controllers
    .map((controller) => Reflect.getMetadata('path', controller) as string | undefined)
    .find((path) => path !== undefined && !path.includes(':'));
  // A module without a route of its own (the tenant-unit links) is not a resource a client calls.
  if (!collection) return undefined;
  const entity = entities[0];
  const words = wordsOf(entity.name);
  const table = getMetadataArgsStorage().tables.find((candidate) => candidate.target === entity)?.name;
  if (!table) throw new Error(`${entity.name} is not a TypeORM entity`);
  const sentence = words.join(' ');
  const snake = words.join('_');
  const path = `/v1/${collection}`;
  return {
    path,
    idParam: `${words[0]}${words
      .slice(1)
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join('')}Id`,
    notFound: `${sentence[0].toUpperCase()}${sentence.slice(1)} not found`,
    table,
    eventType: EVENT_RECORDS.some(({ record }) => record === snake) ? snake : undefined,
    api: resourceApi<RecordBody>(path),
  };
}

/** Only these collection paths, comma-separated (e.g. `/v1/inspection-visits` in `npm run test:generator`). */
const ONLY = process.env.CONTRACT_RESOURCES?.split(',');

/** Every resource a client can call, whatever `CONTRACT_RESOURCES` says (for a rule between two resources). */
export const EVERY_RESOURCE: ResourceUnderTest[] = RESOURCES.flatMap((resource) => underTest(resource) ?? []);

/** Every resource a client can call, in registration order: the contract suite's one table. */
export const RESOURCES_UNDER_TEST: ResourceUnderTest[] = EVERY_RESOURCE.filter(
  (resource) => !ONLY || ONLY.includes(resource.path),
);

export function resourceAt(path: string): ResourceUnderTest {
  const found = RESOURCES_UNDER_TEST.find((resource) => resource.path === path);
  if (!found) throw new Error(`no resource at ${path}`);
  return found;
}

function documentOf(sut: TestApp): OpenApiDocument {
  const doc = openApiDocumentOf(sut.app);
  if (!doc) throw new Error('the app built no OpenAPI document');
  return doc as unknown as OpenApiDocument;
}

/** The body schema of `POST <path>` (`'create'`) or `PUT <path>/{id}` (`'update'`), as the served document has it. */
export function bodySchemaOf(sut: TestApp, resource: ResourceUnderTest, operation: 'create' | 'update'): Schema {
  const doc = documentOf(sut);
  const [method, path] =
    operation === 'create' ? ['POST', resource.path] : ['PUT', `${resource.path}/{${resource.idParam}}`];
  const found = operationsOf(doc).find((op) => op.method === method && op.path === path);
  if (!found?.body) throw new Error(`the document describes no body for ${method} ${path}`);
  return resolveSchema(doc, found.body);
}

/** The query parameters `GET <path>` documents: paging, search, sort, updatedSince and the resource's filters. */
export function listParametersOf(sut: TestApp, resource: ResourceUnderTest): string[] {
  const list = operationsOf(documentOf(sut)).find((op) => op.method === 'GET' && op.path === resource.path);
  if (!list) throw new Error(`the document describes no GET ${resource.path}`);
  return list.query.map((parameter) => parameter.name);
}

/**
 * A valid create body built from the documented schema (required fields only): each required link (`unitId`)
 * to a new record of the team, made the same way, so a resource that needs another one gets it.
 */
export async function newBody(sut: TestApp, team: Team, resource: ResourceUnderTest): Promise<Record<string, unknown>> {
  const doc = documentOf(sut);
  const schema = bodySchemaOf(sut, resource, 'create');
  const links = new Map<string, string>();
  for (const field of schema.required ?? []) {
    const linked = RESOURCES_UNDER_TEST.find((candidate) => candidate.idParam === field);
    if (linked) links.set(field, (await createRecord(sut, team, linked)).id);
  }
  const collections = new Map(RESOURCES_UNDER_TEST.map((candidate) => [candidate.idParam, candidate.path]));
  return sampleObject(doc, schema, { links, optional: false, collections });
}

/** Creates a record of `resource` for `team` through its POST; returns it as the API answered. */
export async function createRecord(sut: TestApp, team: Team, resource: ResourceUnderTest): Promise<RecordBody> {
  return resource.api.create(sut, team, await newBody(sut, team, resource));
}

/** How many rows of the resource the team has, read straight from the database. */
export async function countRows(sut: TestApp, resource: ResourceUnderTest, teamId: string): Promise<number> {
  const [row] = await sut.sql<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${resource.table} WHERE team_id = $1`,
    [teamId],
  );
  return row.count;
}
