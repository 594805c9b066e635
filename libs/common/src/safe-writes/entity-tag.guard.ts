import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { PerRoute } from '../http/route-metadata.js';
import { CONDITIONAL_RESOURCE, type ConditionalResourceOptions } from './conditional-resource.js';
import { ENTITY_TAG_LOCAL } from './safe-writes.interceptor.js';

const ENTITY_TAGGED = 'safe-writes:entity-tagged';

/** On a one-record read (GET one): its answer carries a strong ETag and honours If-None-Match (304). */
export const EntityTagged = (): MethodDecorator => SetMetadata(ENTITY_TAGGED, true);

/**
 * Marks the answer of a route declared `EntityTagged()` for its ETag (the JSON adapter hashes the bytes it sends,
 * without the resource's `untaggedFields`).
 * A guard that never refuses, not an interceptor: a read goes through no interceptor at all, because Nest's
 * interceptor chain (rxjs, an async resource per request) was about a tenth of a one-record read's CPU. Writes
 * get their ETag from `SafeWritesInterceptor`, which they go through anyway.
 */
@Injectable()
export class EntityTagGuard implements CanActivate {
  /** Per route: the fields its ETag leaves out, or undefined when it is not `EntityTagged()`. */
  private readonly untaggedFields = new PerRoute((context): readonly string[] | undefined => {
    if (!this.reflector.get<boolean | undefined>(ENTITY_TAGGED, context.getHandler())) return undefined;
    const resource = this.reflector.get<ConditionalResourceOptions | undefined>(
      CONDITIONAL_RESOURCE,
      context.getClass(),
    );
    return resource?.untaggedFields ?? [];
  });

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): true {
    const untaggedFields = this.untaggedFields.of(context);
    if (untaggedFields) context.switchToHttp().getResponse<Response>().locals[ENTITY_TAG_LOCAL] = untaggedFields;
    return true;
  }
}
