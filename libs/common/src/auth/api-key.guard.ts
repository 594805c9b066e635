import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { PerRoute } from '../http/route-metadata.js';
import { isWriteMethod } from '../rate-limit/rate-limits.js';
import { CallerLookup } from './caller-lookup.js';
import type { AuthenticatedRequest, Caller } from './caller.js';
import { publicRoutes } from './public.decorator.js';
import { TEST_KEYS_ONLY } from './test-keys-only.decorator.js';

export const READ_ONLY_KEY = 'This API key is read-only';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The key of an `Authorization: Bearer <key>` header; undefined when the header is missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

const REALM = 'Bearer realm="Property Portfolio API"';

/**
 * A 401 with its RFC 6750 challenge: `WWW-Authenticate: Bearer realm="…"`, plus `error="invalid_request"` when the
 * header is malformed, or `error="invalid_token"` when a key was sent and is not accepted.
 */
function unauthorized(
  response: Response,
  message: string,
  error?: 'invalid_request' | 'invalid_token',
): UnauthorizedException {
  response.setHeader('WWW-Authenticate', error ? `${REALM}, error="${error}"` : REALM);
  return new UnauthorizedException(message);
}

/** Global guard: every route needs `Authorization: Bearer <key>` unless it is marked `@Public()`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Per route: whether it is `@Public()`, and the refusal of a `@TestKeysOnly()` route to a live key. */
  private readonly isPublic = publicRoutes(this.reflector);
  private readonly testKeysOnly = new PerRoute((context) =>
    this.reflector.getAllAndOverride<string | undefined>(TEST_KEYS_ONLY, [context.getHandler(), context.getClass()]),
  );

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: CallerLookup,
  ) {}

  /**
   * Synchronous when the request gate already identified the caller (every request with a valid key): a promise
   * only when the key must still be looked up. Nest awaits a guard's promise, so an `async` guard cost each
   * request two promises for nothing; a refusal thrown here is the same refusal as one thrown from the promise.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.isPublic.of(context)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const header = request.headers.authorization;
    if (!header) throw unauthorized(response, 'Missing API key: send Authorization: Bearer <key>');
    if (request.caller) {
      if (request.rateLimited) throw new HttpException('Rate limit exceeded', HttpStatus.TOO_MANY_REQUESTS);
      return this.allowed(context, request.method, request.caller);
    }
    const token = bearerToken(header);
    if (!token) {
      throw unauthorized(response, 'Malformed Authorization header: expected Bearer <key>', 'invalid_request');
    }
    if (request.authThrottled) {
      throw new HttpException(
        'Too many failed authentication attempts from this address; retry later',
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    return this.authenticate(context, request, response, token);
  }

  /** The lookup the request gate could not make (it found nothing, or the lookup itself failed). */
  private async authenticate(
    context: ExecutionContext,
    request: AuthenticatedRequest,
    response: Response,
    token: string,
  ): Promise<boolean> {
    // The request gate already looked the key up (and found nothing) unless the lookup itself failed.
    const caller = request.keyRefused ? undefined : await this.keys.authenticate(token);
    if (!caller) throw unauthorized(response, 'Invalid or revoked API key', 'invalid_token');
    request.caller = caller;
    return this.allowed(context, request.method, caller);
  }

  /**
   * After authentication and the limits, before validation: a read-only key may not write, and a live key may not
   * call a `@TestKeysOnly()` route.
   */
  private allowed(context: ExecutionContext, method: string, caller: Caller): true {
    if (caller.access === 'read_only' && isWriteMethod(method)) throw new ForbiddenException(READ_ONLY_KEY);
    const testKeysOnly = this.testKeysOnly.of(context);
    if (testKeysOnly !== undefined && !caller.testMode) throw new ForbiddenException(testKeysOnly);
    return true;
  }
}
