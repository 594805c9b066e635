import type { Type } from '@nestjs/common';
import {
  announcingControllersOf,
  eventRecordsOf,
  eventTypesOf,
  type Actor,
  type ConditionalResourceOptions,
  type EventType,
} from '@app/common';
import { ApiKey, Team } from './api-keys/index.js';
import type { ResourceCsvHooks } from './csv/index.js';
import { CONTRACTOR_EXAMPLE } from './contractors/contractor.example.js';
import { Contractor, ContractorsModule, ContractorsService, CreateContractorDto } from './contractors/index.js';
import { LANDLORD_EXAMPLE } from './landlords/landlord.example.js';
import { CreateLandlordDto, Landlord, LandlordsModule, LandlordsService } from './landlords/index.js';
import { TenanciesModule, Tenancy } from './tenancies/index.js';
import { TENANT_EXAMPLE } from './tenants/tenant.example.js';
import { CreateTenantDto, Tenant, TenantsModule, TenantsService } from './tenants/index.js';
import { UNIT_EXAMPLE } from './units/unit.example.js';
import { CreateUnitDto, Unit, UnitsModule, UnitsService } from './units/index.js';
import { WORK_ORDER_EXAMPLE } from './work-orders/work-order.example.js';
import { WORK_ORDER_NOTE_EXAMPLE } from './work-orders/notes/work-order-note.example.js';
import { ATTACHMENT_EXAMPLE } from './work-orders/attachments/attachment.example.js';
import {
  CreateNoteDto,
  CreateWorkOrderDto,
  WorkOrder,
  WorkOrderAttachment,
  WorkOrderNote,
  WorkOrderNotesService,
  AttachmentExamples,
  AttachmentsService,
  ExampleAttachmentBody,
  WorkOrdersModule,
  WorkOrdersService,
} from './work-orders/index.js';

/** A service that creates the resource's records; the demo team's example record is created with its example id. */
interface CreatesRecords {
  create(teamId: string, body: object, id?: string): Promise<unknown>;
}

/**
 * A resource's example record: `body` is what Swagger UI pre-fills its POST with, `id` the one its other examples
 * (path parameters, other records' links) name. The demo team is given it under that id (demo-records.ts).
 */
export interface ResourceExample {
  record: { id: string; body: object };
  /** The create body's class: the example is validated and transformed as a request's body would be. */
  create: Type;
  service: Type<CreatesRecords>;
}

/** A service that creates records under another record (a work order's notes), written by an API key. */
interface CreatesNestedRecords {
  create(
    teamId: string,
    parentId: string,
    body: object,
    author: Extract<Actor, { type: 'api_key' }>,
    id?: string,
  ): Promise<unknown>;
}

/**
 * The example record of a part of a resource that lives under one of its records (a note under the example work
 * order): created for the demo team after the resource's own example, under `parentId`, by the demo team's key.
 */
export interface NestedExample {
  record: { id: string; body: object };
  parentId: string;
  create: Type;
  service: Type<CreatesNestedRecords>;
  /** The service whose controller announces these records, when `service` is a helper that makes the example. */
  announcedBy?: Type;
}

/**
 * One resource, everything about it in one entry. `module` gives the routes (in this list's order in the API and
 * the OpenAPI document) and, from its `@ConditionalResource` controllers, the event types; `entities` go to the
 * migration tooling (`ormconfig.ts`); `example` is the record the demo team gets, in this list's order (a record
 * that links to another comes after it).
 */
export interface Resource {
  module: Type;
  entities: Type[];
  example?: ResourceExample;
  /** The examples of records that live under the resource's (its paths' nested examples name them). */
  nestedExamples?: NestedExample[];
  /**
   * What its CSV columns (exports, imports: apps/api/src/csv/) cannot derive from the OpenAPI document: the value
   * of a POST body field the response shows otherwise, fields only an import writes. Most resources need none.
   */
  csv?: ResourceCsvHooks;
}

/** A tenant's `unitIds` in an export: the units of its links, oldest link first (as `tenantUnits` lists them). */
const unitIdsOfTenant = (record: Record<string, unknown>): string[] =>
  (record.tenantUnits as Array<{ unit: { id: string } }>).map((link) => link.unit.id);

/** Every resource of the API, registered once. `npm run generate:resource` adds its entry here. */
export const RESOURCES: Resource[] = [
  {
    module: ContractorsModule,
    entities: [Contractor],
    example: { record: CONTRACTOR_EXAMPLE, create: CreateContractorDto, service: ContractorsService },
  },
  {
    module: UnitsModule,
    entities: [Unit],
    example: { record: UNIT_EXAMPLE, create: CreateUnitDto, service: UnitsService },
  },
  { module: TenanciesModule, entities: [Tenancy] },
  {
    module: TenantsModule,
    entities: [Tenant],
    example: { record: TENANT_EXAMPLE, create: CreateTenantDto, service: TenantsService },
    csv: { derived: { unitIds: unitIdsOfTenant } },
  },
  {
    module: WorkOrdersModule,
    entities: [WorkOrder, WorkOrderNote, WorkOrderAttachment],
    example: { record: WORK_ORDER_EXAMPLE, create: CreateWorkOrderDto, service: WorkOrdersService },
    // An import sets a work order's status as given (CONTRACT "Imports and exports"); POST always opens it.
    csv: { importOnly: ['status'] },
    nestedExamples: [
      {
        record: WORK_ORDER_NOTE_EXAMPLE,
        parentId: WORK_ORDER_NOTE_EXAMPLE.workOrderId,
        create: CreateNoteDto,
        service: WorkOrderNotesService,
      },
      {
        record: ATTACHMENT_EXAMPLE,
        parentId: ATTACHMENT_EXAMPLE.workOrderId,
        create: ExampleAttachmentBody,
        service: AttachmentExamples,
        announcedBy: AttachmentsService,
      },
    ],
  },
  {
    module: LandlordsModule,
    entities: [Landlord],
    example: { record: LANDLORD_EXAMPLE, create: CreateLandlordDto, service: LandlordsService },
  },
];

/** Every entity, for the migration tooling; the app itself loads them per module. */
export const entities: Type[] = [Team, ApiKey, ...RESOURCES.flatMap((resource) => resource.entities)];

/** The records that announce their changes (`work_order`), with their names in words (`Work order`). */
export const EVENT_RECORDS = RESOURCES.flatMap((resource) => eventRecordsOf(resource.module));

/** Every event type of the feed and of webhook endpoints' `types`, in this list's order, then `import.completed`. */
export const EVENT_TYPES: EventType[] = [...eventTypesOf(EVENT_RECORDS), 'import.completed'];

/** `a tenant, a unit … or a work order`-style words for descriptions: the announcing records' names, lowercase. */
export function eventRecordNames(conjunction: string): string {
  const names = EVENT_RECORDS.map(({ name }) => name.toLowerCase());
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}` : names.join('');
}

/** The `@ConditionalResource` options of the controller whose records a service writes, when it announces them. */
export function announcerOf(service: Type): ConditionalResourceOptions | undefined {
  const modules = RESOURCES.map((resource) => resource.module);
  return announcingControllersOf(modules).find(({ resource }) => (resource.source as Type) === service)?.resource;
}
