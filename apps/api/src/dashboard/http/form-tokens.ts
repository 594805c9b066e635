import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DashboardSecret } from './dashboard-secret.js';

const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** Compares two tokens in constant time; an empty one never matches. */
export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/**
 * The CSRF token of the forms shown before sign-in (sign-in, sign-up). The `ppa_form` cookie holds a random
 * nonce; the form carries HMAC-SHA256(DASHBOARD_SECRET, nonce). A cookie planted by another page (a sibling
 * origin can write cookies for this host) is useless without the server's signature of it, which only a page
 * this server rendered for that cookie holds. The `Origin`/`Sec-Fetch-Site` check (`SameOriginGuard`) and the
 * `__Host-` cookie prefix in production close the rest: a page of another origin can neither post the form nor
 * plant the cookie there.
 */
@Injectable()
export class FormTokens {
  private readonly secret: Buffer;

  constructor(secret: DashboardSecret) {
    this.secret = secret.value;
  }

  /** A nonce for a new `ppa_form` cookie. */
  newNonce(): string {
    return randomBytes(32).toString('base64url');
  }

  isNonce(value: string | undefined): value is string {
    return value !== undefined && NONCE.test(value);
  }

  /** The token a form carries for the cookie's nonce. */
  tokenFor(nonce: string): string {
    return createHmac('sha256', this.secret).update(`ppa_form:${nonce}`).digest('base64url');
  }

  verify(nonce: string | undefined, token: string): boolean {
    return this.isNonce(nonce) && sameToken(token, this.tokenFor(nonce));
  }
}
