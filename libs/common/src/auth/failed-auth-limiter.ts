import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../clock/clock.js';
import { AppConfig } from '../config/app-config.js';

const WINDOW_MS = 60_000;
/** Clients tracked at once; beyond it the oldest window is forgotten (memory stays bounded under a flood). */
const MAX_CLIENTS = 50_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed authentications per client address (unknown, revoked or expired keys), in fixed one-minute windows, per
 * instance. Past `AUTH_FAILURES_PER_MINUTE`, the client's keys are no longer looked up in the database until the
 * window ends: a key this instance has cached still works, anything else is answered 429. So guessing keys costs
 * the database at most that many lookups per client and minute.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private current(client: string, now: number): Window | undefined {
    const window = this.windows.get(client);
    if (window && now - window.startedAt >= WINDOW_MS) {
      this.windows.delete(client);
      return undefined;
    }
    return window;
  }

  /** Whether the client used up its failures for this window. */
  throttled(client: string): boolean {
    const window = this.current(client, this.clock.now());
    return window !== undefined && window.failures >= this.config.AUTH_FAILURES_PER_MINUTE;
  }

  fail(client: string): void {
    const now = this.clock.now();
    const window = this.current(client, now);
    if (window) {
      window.failures++;
      return;
    }
    if (this.windows.size >= MAX_CLIENTS) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(client, { startedAt: now, failures: 1 });
  }

  /** The 429's headers: when the window ends, and the limit that bound. */
  refuse(client: string, response: Response): void {
    const now = this.clock.now();
    const endsAt = (this.current(client, now)?.startedAt ?? now) + WINDOW_MS;
    response.setHeader('Retry-After', String(Math.max(1, Math.ceil((endsAt - now) / 1000))));
    response.setHeader('X-RateLimit-Limit', String(this.config.AUTH_FAILURES_PER_MINUTE));
    response.setHeader('X-RateLimit-Remaining', '0');
    response.setHeader('X-RateLimit-Reset', String(Math.ceil(endsAt / 1000)));
  }
}
