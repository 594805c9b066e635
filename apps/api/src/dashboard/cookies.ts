import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'ppa_session';
/** The CSRF token of forms shown before sign-in (double-submit: the form must echo this cookie). */
export const FORM_COOKIE = 'ppa_form';

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

export interface CookieFlags {
  secure: boolean;
}

/** HttpOnly, SameSite=Lax, limited to the dashboard, Secure in production; a session cookie (no Max-Age). */
export function setCookie(response: Response, name: string, value: string, { secure }: CookieFlags): void {
  response.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure, path: '/dashboard' });
}

export function clearCookie(response: Response, name: string, { secure }: CookieFlags): void {
  response.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure, path: '/dashboard' });
}
