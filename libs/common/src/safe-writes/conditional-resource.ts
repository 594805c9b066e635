import { SetMetadata, type Type } from '@nestjs/common';
import { isUuid } from '../validation/id-param.js';

/**
 * What the safe-writes interceptor needs of a resource's service to evaluate preconditions. `parentId` is the id
 * of the record a nested one lives under (`ConditionalResourceOptions.parent`): a record of another parent is
 * none.
 */
export interface ConditionalSource {
  /** The record exactly as GET one answers it (`data`); throws the 404 when there is none. */
  get(teamId: string, id: string, parentId?: string): Promise<object>;
  /** Locks the record until the request's transaction ends; false when there is no such record. */
  lock(teamId: string, id: string, parentId?: string): Promise<boolean>;
  /**
   * `lock` and `get` in one statement (one round trip instead of two), for a PUT's `previousAttributes`; undefined
   * when there is no such record. Optional: a source whose GET one takes several statements leaves it out, and
   * callers then lock and get.
   */
  getLocked?(teamId: string, id: string, parentId?: string): Promise<object | undefined>;
}

/** The record as GET one answers it, locked until the transaction ends: in one statement when the source can. */
export async function lockedRecord(
  source: ConditionalSource,
  teamId: string,
  id: string,
  parentId?: string,
): Promise<object | undefined> {
  if (source.getLocked) return source.getLocked(teamId, id, parentId);
  return (await source.lock(teamId, id, parentId)) ? source.get(teamId, id, parentId) : undefined;
}

/** The record a nested record lives under (an invoice's line lives under the invoice). */
export interface ParentResource {
  /** The service that reads and locks the parent (its 404 comes first: a missing parent is not found as such). */
  source: Type<ConditionalSource>;
  /** The path parameter holding the parent's id, e.g. `invoiceId` in `/invoices/{invoiceId}/lines/{lineId}`. */
  idParam: string;
  /** The parent's name in words (`Invoice`), for its 404; its events' name is derived as the record's is. */
  name: string;
  /** Its name in event types, when its controller names one. */
  event?: string;
}

export interface ConditionalResourceOptions {
  /** The service that reads and locks the record. */
  source: Type<ConditionalSource>;
  /** The path parameter holding the record's id, e.g. `invoiceId`. */
  idParam: string;
  /** The record's name in words, for the 404 (`Invoice not found`). */
  name: string;
  /** Its name in event types (`invoice.created`); default: `name` in snake case. */
  event?: string;
  /**
   * For a record that lives under another one's path: the parent. Preconditions look the record up under the
   * parent named in the path, and its events name the parent (`EventContext.parent`) for the parent's history.
   */
  parent?: ParentResource;
  /**
   * The changes it announces, when not all three (`created`, `updated`, `deleted`): a record that no route updates
   * (an attachment) lists none it can never send, and the event catalogue derived from it (`eventTypesOf`) follows.
   */
  actions?: ReadonlyArray<'created' | 'updated' | 'deleted'>;
  /**
   * Fields of its answer that are not part of its state and stay out of its `ETag` (default: none), e.g. a signed
   * URL and its expiry, made anew for every read: the tag names the record, so `If-Match` and `If-None-Match` with
   * a tag read earlier still hold while the record is unchanged.
   */
  untaggedFields?: readonly string[];
  /** What its events carry of a created or updated record's answer (default: all of it), e.g. without a signed URL. */
  eventObject?: (data: object) => object;
}

/**
 * What a created or updated record's event carries: its `eventObject` of the record's answer, or all of it. Every
 * writer that announces a change (the events interceptor, imports, the demo and sample writes) goes through this.
 */
export function eventObjectOf(resource: ConditionalResourceOptions, data: object): object {
  return resource.eventObject?.(data) ?? data;
}

/** The parent's id in a request's path, when the resource is nested and the id is a UUID (else validation refuses). */
export function parentIdOf(resource: ConditionalResourceOptions, params: Record<string, unknown>): string | undefined {
  const raw = resource.parent ? params[resource.parent.idParam] : undefined;
  return typeof raw === 'string' && isUuid(raw) ? raw.toLowerCase() : undefined;
}

export const CONDITIONAL_RESOURCE = 'ppa:conditional-resource';

/**
 * Marks a resource controller: GET one, POST and PUT answers carry an `ETag`; GET one honours
 * `If-None-Match`, PUT and DELETE honour `If-Match` (checked in the same transaction as the write).
 */
export const ConditionalResource = (options: ConditionalResourceOptions): ClassDecorator =>
  SetMetadata(CONDITIONAL_RESOURCE, options);
