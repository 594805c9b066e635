import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '@app/common';
import { DashboardError } from './dashboard-error.filter.js';
import { CONTROL_CHARACTER, csrfFieldOf } from './dashboard-request.js';

const isSafeMethod = (request: Request): boolean => request.method === 'GET' || request.method === 'HEAD';

/**
 * Every dashboard POST must come from the dashboard's own pages. A browser says where a form was posted from:
 * `Sec-Fetch-Site` (anything but `same-origin`, or `none` for a person's own navigation, is another site — a
 * sibling subdomain is `same-site` and refused too) and `Origin` (its host must be this server's, or
 * PUBLIC_URL's). Clients that send neither (curl, scripts, a browser over plain HTTP to another host than
 * localhost) still need the form's CSRF token.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  private readonly publicHost: string | undefined;

  constructor(config: AppConfig) {
    this.publicHost = config.PUBLIC_URL ? hostOf(config.PUBLIC_URL) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (isSafeMethod(request)) return true;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw crossSite();
    const origin = request.headers.origin;
    // `null` is what a browser sends from our own pages too (they carry `Referrer-Policy: no-referrer`), so it
    // tells nothing; Sec-Fetch-Site, sent over HTTPS and to localhost, decided above.
    if (origin !== undefined && origin !== 'null') {
      const host = hostOf(origin);
      if (host === undefined || (host !== request.host && host !== this.publicHost)) throw crossSite();
    }
    return true;
  }
}

/**
 * A dashboard POST is an HTML form: `application/x-www-form-urlencoded` with its fields. No body, another
 * content type (JSON, text/plain) or a control character in the form token is a form that cannot be read: 400,
 * before anything else looks at it. (Control characters in the other fields are the form DTOs' rule, so the
 * form's own page names the field.)
 */
@Injectable()
export class ReadableFormGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (isSafeMethod(request)) return true;
    const body: unknown = request.body;
    const readable =
      request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded' &&
      body !== null &&
      typeof body === 'object' &&
      Object.keys(body).length > 0;
    if (!readable) {
      throw new DashboardError(
        400,
        'Form not readable',
        'This form could not be read: the dashboard takes HTML forms (application/x-www-form-urlencoded) with ' +
          'their fields. Nothing was changed.',
      );
    }
    if (CONTROL_CHARACTER.test(csrfFieldOf(request))) {
      throw new DashboardError(
        400,
        'Form not readable',
        'This form could not be read: its security token contains control characters. Nothing was changed.',
      );
    }
    return true;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

function crossSite(): DashboardError {
  return new DashboardError(
    403,
    'Form refused',
    'This form was sent from another site, so it was refused. Nothing was changed. ' +
      'Open the dashboard itself and try again there.',
  );
}
