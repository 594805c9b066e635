import { BadRequestException, CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { publicRoutes } from '../auth/public.decorator.js';
import { unknownQueryParameter } from './validation-errors.js';

/**
 * Global guard, after the API-key guard (so the key is checked first): an API operation that declares no query
 * parameters (GET one, POST, PUT, DELETE) refuses any it is given, as a list refuses an unknown one (CONTRACT:
 * "Unknown query parameters → 400"), naming each. Operations with a `@Query()` DTO leave the check to it.
 * Public routes (health, docs, the dashboard's pages) are left alone.
 */
@Injectable()
export class DeclaredQueryGuard implements CanActivate {
  /** Whether each handler takes a `@Query()` argument: read once per handler from Nest's route metadata. */
  private readonly takesQuery = new WeakMap<object, boolean>();
  /** Per route: whether it is `@Public()`. */
  private readonly isPublic = publicRoutes(this.reflector);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & Request>();
    if (!request.caller) return true;
    // A public route (health, the document) called with a key anyway is still a public route.
    if (this.isPublic.of(context)) return true;
    const names = Object.keys(request.query);
    if (names.length === 0 || this.declaresQuery(context)) return true;
    throw new BadRequestException(names.map(unknownQueryParameter).join('; '));
  }

  private declaresQuery(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.takesQuery.get(handler);
    if (known === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as object;
      known = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.QUERY}:`));
      this.takesQuery.set(handler, known);
    }
    return known;
  }
}
