import { Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '@app/common';

/** The cookies' names without their production prefix. */
const SESSION = 'ppa_session';
/** The pre-sign-in form token's nonce (see `FormTokens`). */
const FORM = 'ppa_form';

export function cookiesOf(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/**
 * The dashboard's cookies, HttpOnly and SameSite=Lax, session cookies (no Max-Age; `ShownOnce`'s live minutes). In production they are
 * `__Host-` cookies (Secure, Path=/, no Domain): a browser accepts such a cookie only from this very host over
 * HTTPS, so a page on a sibling subdomain cannot plant one. Elsewhere (plain HTTP in development) they keep
 * their names and are limited to `/dashboard`.
 */
@Injectable()
export class DashboardCookies {
  private readonly prefix: string;
  /** Every dashboard cookie's attributes. */
  readonly options: CookieOptions;

  constructor(config: AppConfig) {
    const production = config.isProduction;
    this.prefix = production ? '__Host-' : '';
    this.options = { httpOnly: true, sameSite: 'lax', secure: production, path: production ? '/' : '/dashboard' };
  }

  /** A dashboard cookie's name, with the production prefix. */
  named(name: string): string {
    return `${this.prefix}${name}`;
  }

  get sessionName(): string {
    return this.named(SESSION);
  }

  get formName(): string {
    return this.named(FORM);
  }

  session(request: Request): string | undefined {
    return cookiesOf(request).get(this.sessionName);
  }

  form(request: Request): string | undefined {
    return cookiesOf(request).get(this.formName);
  }

  setSession(response: Response, sessionId: string): void {
    response.cookie(this.sessionName, sessionId, this.options);
  }

  clearSession(response: Response): void {
    response.clearCookie(this.sessionName, this.options);
  }

  setForm(response: Response, nonce: string): void {
    response.cookie(this.formName, nonce, this.options);
  }
}
