import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Viewer } from './views/layout.js';
import { errorPage } from './views/pages.js';

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

/**
 * The dashboard answers people, not programs: failures are HTML pages with a clear message. A fault is a 500
 * page without internals (the log keeps the details), like the API's `{error}`.
 */
@Catch()
export class DashboardErrorFilter implements ExceptionFilter {
  private readonly log = new Logger('Dashboard');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
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
      this.log.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    response
      .status(status)
      .type('html')
      .setHeader('Cache-Control', 'no-store')
      .send(errorPage(status, title, message, viewer));
  }
}
