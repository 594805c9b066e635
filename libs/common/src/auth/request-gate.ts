import { Injectable } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { bearerToken } from './api-key.guard.js';
import { CallerLookup, RequestUsage } from './caller-lookup.js';
import { FailedAuthLimiter } from './failed-auth-limiter.js';
import type { AuthenticatedRequest } from './caller.js';

/**
 * Under `/v1`, everything is the API except the document itself. In any case of letters, as Express routes them:
 * `/V1/…` is served like `/v1/…`, so it is counted and limited like it (it went unlimited before).
 */
const API_PATH = /^\/v1\/(?!openapi\.(json|yaml)$)/i;

/**
 * Express middleware in front of body parsing: a `/v1` request with a valid key is identified and counted
 * before anything else can answer it, so every answer to it — malformed JSON (400), 413, 415, an unknown route or
 * method (404)
 * — carries the `X-RateLimit-*` headers and uses the key's quota; a request over the limit is answered 429 by
 * `ApiKeyGuard` (or the unmatched-route handler). Requests without a valid key pass on untouched: the guard
 * answers 401 on every route, and an unknown route stays 404.
 */
@Injectable()
export class RequestGate {
  constructor(
    private readonly keys: CallerLookup,
    private readonly limiter: RateLimiter,
    private readonly usage: RequestUsage,
    private readonly failures: FailedAuthLimiter,
  ) {}

  readonly handle = (request: AuthenticatedRequest, response: Response, next: NextFunction): void => {
    // A failed lookup (the database is away) is left to the guard, which answers through the exception filter.
    this.identify(request, response).then(
      () => next(),
      () => next(),
    );
  };

  private async identify(request: AuthenticatedRequest, response: Response): Promise<void> {
    if (!API_PATH.test(request.path)) return;
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return;
    // The TCP peer, or with TRUST_PROXY_HOPS the address the trusted proxies were asked by (Express's request.ip).
    const client = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    const { caller, lookedUp, deferred } = await this.keys.identify(token, () => this.failures.mayLookUp(client));
    if (!caller) {
      request.keyRefused = true;
      if (deferred) {
        request.authThrottled = true;
        this.failures.refuse(client, response);
      } else if (lookedUp) {
        // Only a refusal that cost a lookup counts: one answered from memory costs the database nothing.
        this.failures.fail(client);
      }
      return;
    }
    request.caller = caller;
    const started = performance.now();
    // Off the request path: the recorder only counts in memory; it writes in batches every few seconds.
    response.once('finish', () =>
      this.usage.record(caller, request.method, request.path, response.statusCode, performance.now() - started),
    );
    // Refused requests go on to routing, so the 429 is answered (and measured) under its route.
    request.rateLimited = !(await this.limiter.admit(caller.apiKeyId, request.method, response));
  }
}
