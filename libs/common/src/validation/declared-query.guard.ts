import {
  BadRequestException,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  type CustomDecorator,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { publicRoutes } from '../auth/public.decorator.js';
import { unknownQueryParameter } from './validation-errors.js';

const CHECKED_IN_KEYED_WRITE = 'declaredQuery:checkedInKeyedWrite';

/**
 * Marks a keyed write (`SafeWritesInterceptor`): sent with an `Idempotency-Key`, its query is checked inside the
 * interceptor (`undeclaredQueryRefusal`), so that this 400 is stored under the key like any other answer.
 */
export const QueryCheckedInKeyedWrite = (): CustomDecorator => SetMetadata(CHECKED_IN_KEYED_WRITE, true);

/** Whether each handler takes a `@Query()` argument: read once per handler from Nest's route metadata. */
const takesQuery = new WeakMap<object, boolean>();

function declaresQuery(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let known = takesQuery.get(handler);
  if (known === undefined) {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as object;
    known = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.QUERY}:`));
    takesQuery.set(handler, known);
  }
  return known;
}

/**
 * The 400 for an operation that declares no query parameters (GET one, POST, PUT, DELETE) given some, naming
 * each (CONTRACT: "Unknown query parameters → 400"); undefined when there are none or a `@Query()` DTO checks them.
 */
export function undeclaredQueryRefusal(context: ExecutionContext): BadRequestException | undefined {
  const names = Object.keys(context.switchToHttp().getRequest<Request>().query);
  if (names.length === 0 || declaresQuery(context)) return undefined;
  return new BadRequestException(names.map(unknownQueryParameter).join('; '));
}

/**
 * Global guard, after the API-key guard (so the key is checked first): refuses query parameters an API operation
 * does not declare (`undeclaredQueryRefusal`). Public routes (health, docs, the dashboard's pages) are left
 * alone, and so is a keyed write sent with an `Idempotency-Key`, which checks inside its transaction instead.
 */
@Injectable()
export class DeclaredQueryGuard implements CanActivate {
  /** Per route: whether it is `@Public()`. */
  private readonly isPublic = publicRoutes(this.reflector);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & Request>();
    if (!request.caller) return true;
    // A public route (health, the document) called with a key anyway is still a public route.
    if (this.isPublic.of(context)) return true;
    if (
      request.headers['idempotency-key'] !== undefined &&
      this.reflector.get<boolean | undefined>(CHECKED_IN_KEYED_WRITE, context.getHandler())
    ) {
      return true;
    }
    const refusal = undeclaredQueryRefusal(context);
    if (refusal) throw refusal;
    return true;
  }
}
