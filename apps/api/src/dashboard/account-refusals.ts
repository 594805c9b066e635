import type { Request, Response } from 'express';
import { type Refusal } from './accounts/index.js';

/** The client address the sign-in and sign-up limits count: the TCP peer, or behind TRUST_PROXY_HOPS proxies. */
export function clientOf(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}

/** The notice shown once sign-up was submitted, the same whether the email was new or already had an account. */
export const SIGNED_UP_NOTICE =
  'Thank you. If this email is new, its account and team are ready: sign in with it. ' +
  'If it already had an account, nothing was changed: sign in with that account’s password.';

/**
 * A 429 for a refused sign-in or sign-up: sets `Retry-After` (whole seconds, at least 1) and returns the text the
 * page shows. `throttled` is sign-up's hourly count here (sign-in's count per email has its own text).
 */
export function refuse(response: Response, refusal: Refusal, action: 'sign-in' | 'sign-up'): string {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  response.setHeader('Retry-After', String(seconds));
  if (refusal.outcome === 'busy') {
    return `Too many ${action === 'sign-in' ? 'sign-ins' : 'sign-ups'} are being checked from your address just now. Try again in a few seconds.`;
  }
  const minutes = Math.ceil(seconds / 60);
  return `Too many sign-ups from your address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
