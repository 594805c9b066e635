import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { Clock } from '../clock/clock.js';
import { RateDecision, SlidingWindowStore, WindowState } from './sliding-window.store.js';

export const WINDOW_MS = 60_000;
export const ALL_REQUESTS = 'all';
export const WRITE_REQUESTS = 'writes';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The window whose numbers the caller needs to see: the fewest requests left; among equals, the one that
 * stays closed longest (the longer wait when refused, else the later reset), since a request needs room in
 * every window it counts against.
 */
export function bindingWindow(windows: WindowState[]): WindowState {
  const left = (window: WindowState): number => Math.max(0, window.limit - window.count);
  const oldest = (window: WindowState): number => window.oldest ?? Number.NEGATIVE_INFINITY;
  return windows.reduce((hardest, window) => {
    if (left(window) !== left(hardest)) return left(window) < left(hardest) ? window : hardest;
    if (window.retryAfterMs !== hardest.retryAfterMs)
      return window.retryAfterMs > hardest.retryAfterMs ? window : hardest;
    return oldest(window) > oldest(hardest) ? window : hardest;
  });
}

/**
 * Per-API-key limits over all routes (not the stock per-route keys), in a sliding window: every request
 * counts against "all", writes also against "writes", both checked and counted in one store call.
 * Runs after the API-key guard; routes without a caller (health) are not limited.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly log = new Logger('RateLimit');
  private lastStoreWarning = 0;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly windows: SlidingWindowStore,
    reflector: Reflector,
    private readonly clock: Clock,
  ) {
    super(options, windows, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const caller = request.caller;
    if (!caller) return true;
    const isWrite = WRITE_METHODS.has(request.method);
    const limits = this.throttlers
      .filter((throttler) => throttler.name === ALL_REQUESTS || (isWrite && throttler.name === WRITE_REQUESTS))
      .map((throttler) => ({ name: throttler.name as string, limit: throttler.limit as number }));
    const now = this.clock.now();

    let decision: RateDecision;
    try {
      decision = await this.windows.consume(caller.apiKeyId, limits, now, WINDOW_MS);
    } catch (error) {
      // Fail open: an outage of the limit store must not take the API down with it.
      if (now - this.lastStoreWarning > 10_000) {
        this.lastStoreWarning = now;
        const reason = error instanceof Error ? error.message : String(error);
        this.log.warn(`rate-limit store unavailable, requests are not limited: ${reason}`);
      }
      return true;
    }

    const response = http.getResponse<Response>();
    const binding = bindingWindow(decision.windows);
    const resetMs = binding.oldest === undefined ? now : binding.oldest + WINDOW_MS;
    response.setHeader('X-RateLimit-Limit', binding.limit);
    response.setHeader('X-RateLimit-Remaining', Math.max(0, binding.limit - binding.count));
    response.setHeader('X-RateLimit-Reset', Math.ceil(resetMs / 1000));
    if (!decision.allowed) {
      const retryAfterMs = Math.max(...decision.windows.map((window) => window.retryAfterMs));
      response.setHeader('Retry-After', Math.max(1, Math.ceil(retryAfterMs / 1000)));
      throw new ThrottlerException('Rate limit exceeded');
    }
    return true;
  }
}
