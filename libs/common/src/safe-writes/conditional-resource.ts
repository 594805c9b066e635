import { SetMetadata, type Type } from '@nestjs/common';

/** What the safe-writes interceptor needs of a resource's service to evaluate preconditions. */
export interface ConditionalSource {
  /** The record exactly as GET one answers it (`data`); throws the 404 when there is none. */
  get(teamId: string, id: string): Promise<object>;
  /** Locks the record until the request's transaction ends; false when there is no such record. */
  lock(teamId: string, id: string): Promise<boolean>;
  /**
   * `lock` and `get` in one statement (one round trip instead of two), for a PUT's `previousAttributes`; undefined
   * when there is no such record. Optional: a source whose GET one takes several statements leaves it out, and
   * callers then lock and get.
   */
  getLocked?(teamId: string, id: string): Promise<object | undefined>;
}

/** The record as GET one answers it, locked until the transaction ends: in one statement when the source can. */
export async function lockedRecord(source: ConditionalSource, teamId: string, id: string): Promise<object | undefined> {
  if (source.getLocked) return source.getLocked(teamId, id);
  return (await source.lock(teamId, id)) ? source.get(teamId, id) : undefined;
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
}

export const CONDITIONAL_RESOURCE = 'ppa:conditional-resource';

/**
 * Marks a resource controller: GET one, POST and PUT answers carry an `ETag`; GET one honours
 * `If-None-Match`, PUT and DELETE honour `If-Match` (checked in the same transaction as the write).
 */
export const ConditionalResource = (options: ConditionalResourceOptions): ClassDecorator =>
  SetMetadata(CONDITIONAL_RESOURCE, options);
