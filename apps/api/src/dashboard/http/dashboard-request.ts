import type { Request } from 'express';
import type { Session } from '../sessions.service.js';

/** What the dashboard's guards and interceptors attach to a request for its handler. */
export interface DashboardRequest extends Request {
  /** The signed-in person (`SessionGuard`). */
  dashboardSession?: Session;
  /** The token to put in a form shown before sign-in (`FormTokenInterceptor`). */
  formToken?: string;
}

/** C0 and C1 control characters (NUL included): no dashboard field may hold one. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The `_csrf` field of a form body as sent; a repeated or missing field reads as empty. */
export function csrfFieldOf(request: Request): string {
  const body: unknown = request.body;
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)._csrf : undefined;
  return typeof value === 'string' ? value : '';
}
