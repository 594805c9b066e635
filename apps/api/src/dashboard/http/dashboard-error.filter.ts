import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { aboutRequest } from '@app/common';
import type { Viewer } from '../views/layout.js';
import { errorPage } from '../views/pages.js';
import { DashboardCookies } from './cookies.js';
import { signInUrl } from './return-path.js';

/** A failure a person can act on, shown as a page with its own title and message. */
export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly viewer?: Viewer,
  ) {
    super(message);
  }
}

/** A page that answers with another status than the route's own: a form shown again with what was wrong. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`page answered with ${status}`);
  }
}

/** No session, or one that expired: the person is sent to sign in (told so when it expired). */
export class SignInRequired extends Error {
  constructor(
    readonly expired: boolean,
    /** The page asked for, to go back to once signed in (`returnPathOf`). */
    readonly next?: string,
  ) {
    super('sign-in required');
  }
}

/** Refused before anything happened: the form's token is missing, forged or another session's. */
export function formRefused(viewer?: Viewer): DashboardError {
  return new DashboardError(
    403,
    'Form refused',
    'This form could not be verified (its security token is missing or out of date). Nothing was changed. ' +
      'Go back, reload the page and try again.',
    viewer,
  );
}

/**
 * The dashboard answers people, not programs: failures are HTML pages with a clear message. A fault is a 500
 * page without internals (the log keeps the details), like the API's `{error}`.
 */
@Catch()
export class DashboardErrorFilter implements ExceptionFilter {
  private readonly log = new Logger('Dashboard');

  constructor(private readonly cookies: DashboardCookies) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    response.setHeader('Cache-Control', 'no-store');
    if (exception instanceof SignInRequired) {
      if (exception.expired) this.cookies.clearSession(response);
      response.redirect(303, signInUrl(exception.expired ? 'expired' : undefined, exception.next));
      return;
    }
    if (exception instanceof PageError) {
      response.status(exception.status).set(exception.headers).type('html').send(exception.html);
      return;
    }
    let status = 500;
    let title = 'Something went wrong';
    let message = 'The dashboard could not do that just now. Nothing was changed; try again in a moment.';
    let viewer: Viewer | undefined;
    if (exception instanceof DashboardError) {
      ({ status, title, viewer } = exception);
      message = exception.message;
    } else if (exception instanceof HttpException && exception.getStatus() < 500) {
      status = exception.getStatus();
      title = status === 404 ? 'Page not found' : 'Request refused';
      message = status === 404 ? 'There is no such page in the dashboard.' : exception.message;
    } else {
      const text = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.log.error(text, aboutRequest(response));
    }
    response
      .status(status)
      .type('html')
      .send(errorPage(status, title, message, viewer));
  }
}
