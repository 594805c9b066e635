import {
  applyDecorators,
  CallHandler,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import { DashboardCookies } from './cookies.js';
import { formRefused } from './dashboard-error.filter.js';
import { csrfFieldOf, type DashboardRequest } from './dashboard-request.js';
import { FormTokens } from './form-tokens.js';

/** A POST of a form shown before sign-in carries the token signed for its `ppa_form` cookie, or gets 403. */
@Injectable()
export class FormTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: FormTokens,
    private readonly cookies: DashboardCookies,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    if (!this.tokens.verify(this.cookies.form(request), csrfFieldOf(request))) throw formRefused();
    return true;
  }
}

/** Gives the browser a `ppa_form` nonce when it has none, and the handler the token for its form. */
@Injectable()
export class FormTokenInterceptor implements NestInterceptor {
  constructor(
    private readonly tokens: FormTokens,
    private readonly cookies: DashboardCookies,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<DashboardRequest>();
    let nonce = this.cookies.form(request);
    if (!this.tokens.isNonce(nonce)) {
      nonce = this.tokens.newNonce();
      this.cookies.setForm(http.getResponse<Response>(), nonce);
    }
    request.formToken = this.tokens.tokenFor(nonce);
    return next.handle();
  }
}

/** The route shows or takes a form before sign-in (sign-in, sign-up), protected by a signed token. */
export const BeforeSignIn = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(FormTokenGuard), UseInterceptors(FormTokenInterceptor));

/** The token for the form on a page under `@BeforeSignIn()`. */
export const FormToken = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<DashboardRequest>().formToken ?? '';
});
