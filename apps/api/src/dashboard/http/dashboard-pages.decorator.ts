import {
  applyDecorators,
  CallHandler,
  Controller,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import { Public } from '@app/common';
import { DashboardErrorFilter } from './dashboard-error.filter.js';
import { ReadableFormGuard, SameOriginGuard } from './form-request.guards.js';
import { SessionCsrfGuard, SessionGuard } from './session.guard.js';

/** Every dashboard answer is an HTML page (or a redirect) that no cache keeps: a new key is on it once. */
@Injectable()
export class HtmlPagesInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context.switchToHttp().getResponse<Response>().type('html').setHeader('Cache-Control', 'no-store');
    return next.handle();
  }
}

/**
 * A controller of dashboard pages under `/dashboard/<path>`: no API key and no API rate limits, not in the
 * OpenAPI document, failures as pages, and every POST checked to come from the dashboard's own pages as a
 * readable HTML form before its session or token is looked at. `signedIn`: every route needs a session
 * (`@SignedIn()` on the whole controller, in that order: a method's guards run after the class's).
 */
export const DashboardPages = (path?: string, { signedIn = false }: { signedIn?: boolean } = {}): ClassDecorator =>
  applyDecorators(
    Public(),
    ApiExcludeController(),
    UseFilters(DashboardErrorFilter),
    UseGuards(SameOriginGuard, ReadableFormGuard, ...(signedIn ? [SessionGuard, SessionCsrfGuard] : [])),
    UseInterceptors(HtmlPagesInterceptor),
    Controller(path ? `dashboard/${path}` : 'dashboard'),
  );
