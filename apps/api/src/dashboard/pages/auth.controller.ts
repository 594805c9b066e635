import { Get, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '@app/common';
import { AccountInputError, AccountsService, type Account } from '../accounts/index.js';
import { clientOf, refuse, SIGNED_UP_NOTICE } from '../account-refusals.js';
import { Form, type Submitted } from '../forms/form.pipe.js';
import { SignInForm, SignUpForm } from '../forms/auth.forms.js';
import { DashboardCookies } from '../http/cookies.js';
import { PageError } from '../http/dashboard-error.filter.js';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { BeforeSignIn, FormToken } from '../http/form-token.guard.js';
import { SignedIn } from '../http/session.guard.js';
import { SessionsService } from '../sessions.service.js';
import { DASHBOARD, type Notice } from '../views/layout.js';
import { signInPage, signUpPage } from '../views/auth-pages.js';
import { returnPath } from '../http/return-path.js';

const error = (text: string, field?: string): Notice => ({ kind: 'error', text, field });

/**
 * Getting in and out: sign-up, sign-in, sign-out. The forms before sign-in carry a token signed for the
 * browser's `ppa_form` cookie (`@BeforeSignIn()`); these three handlers take the response to set or clear the
 * session cookie, and Nest sends what they return.
 */
@DashboardPages()
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly cookies: DashboardCookies,
    private readonly config: AppConfig,
  ) {}

  private get signUpEnabled(): boolean {
    return this.config.DASHBOARD_SIGNUP ?? !this.config.isProduction;
  }

  @Get()
  @SignedIn()
  @Redirect(`${DASHBOARD}/keys`, 303)
  home(): void {}

  @Get('sign-up')
  @BeforeSignIn()
  signUpForm(@FormToken() csrfToken: string): string {
    return signUpPage({ csrfToken, enabled: this.signUpEnabled });
  }

  @Post('sign-up')
  @BeforeSignIn()
  @Redirect(`${DASHBOARD}/sign-in?reason=signed-up`, 303)
  async signUp(
    @FormToken() csrfToken: string,
    @Form(SignUpForm) submitted: Submitted<SignUpForm>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const { teamName, email, password } = submitted.form;
    const again = (status: number, notice: Notice) =>
      new PageError(status, signUpPage({ csrfToken, enabled: this.signUpEnabled, notice, teamName, email }));
    // The page itself says sign-up is off (and what to do instead): no second notice saying it again.
    if (!this.signUpEnabled) throw new PageError(403, signUpPage({ csrfToken, enabled: false }));
    if (!submitted.valid) throw again(400, error(submitted.problem, submitted.field));
    // Neutral answer (a taken email is answered as a new one), sign-ups counted per client address, and the
    // password-hashing gate (issue 21, points 3 and 5): the rules live in AccountsService.
    let result: Awaited<ReturnType<AccountsService['signUp']>>;
    try {
      result = await this.accounts.signUp(teamName, email, password, clientOf(request));
    } catch (failure) {
      if (failure instanceof AccountInputError) throw again(400, error(failure.message, failure.field));
      throw failure;
    }
    if (result.outcome !== 'submitted') throw again(429, error(refuse(response, result, 'sign-up')));
  }

  @Get('sign-in')
  @BeforeSignIn()
  signInForm(@FormToken() csrfToken: string, @Query('reason') reason?: string, @Query('next') next?: unknown): string {
    const notice: Notice =
      reason === 'expired'
        ? { kind: 'info', text: 'Your session expired. Sign in again.' }
        : reason === 'signed-out'
          ? { kind: 'success', text: 'You are signed out.' }
          : reason === 'signed-up'
            ? { kind: 'success', text: SIGNED_UP_NOTICE }
            : undefined;
    return signInPage({ csrfToken, notice, signUpEnabled: this.signUpEnabled, next: returnPath(next) });
  }

  @Post('sign-in')
  @BeforeSignIn()
  @Redirect(`${DASHBOARD}/keys`, 303)
  async signIn(
    @FormToken() csrfToken: string,
    @Form(SignInForm) submitted: Submitted<SignInForm>,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ url: string } | undefined> {
    const { email, password } = submitted.form;
    const next = returnPath(submitted.form.next);
    const again = (status: number, text: string, headers?: Record<string, string>, field?: string) =>
      new PageError(
        status,
        signInPage({ csrfToken, email, notice: error(text, field), signUpEnabled: this.signUpEnabled, next }),
        headers,
      );
    if (!submitted.valid) throw again(400, submitted.problem, undefined, submitted.field);
    const result = await this.accounts.signIn(email, password, clientOf(request));
    if (result.outcome === 'throttled') {
      const minutes = Math.ceil(result.retryAfterMs / 60_000);
      throw again(
        429,
        `Too many failed sign-ins for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { 'Retry-After': String(Math.ceil(result.retryAfterMs / 1000)) },
      );
    }
    // The password-hashing gate (issue 21, point 3).
    if (result.outcome === 'busy') throw again(429, refuse(response, result, 'sign-in'));
    if (result.outcome === 'wrong') throw again(401, 'Wrong email or password.');
    await this.beginSession(request, response, result.account);
    // An account made by sign-up is welcomed at its first sign-in; otherwise back to the page asked for, if any.
    if (result.welcome) return { url: `${DASHBOARD}/keys?welcome=1` };
    return next ? { url: next } : undefined;
  }

  @Post('sign-out')
  @SignedIn()
  @Redirect(`${DASHBOARD}/sign-in?reason=signed-out`, 303)
  async signOut(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const sessionId = this.cookies.session(request);
    if (sessionId) await this.sessions.end(sessionId);
    this.cookies.clearSession(response);
  }

  /** A fresh session id at every sign-in; a session the browser still held ends. */
  private async beginSession(request: Request, response: Response, account: Account): Promise<void> {
    const previous = this.cookies.session(request);
    if (previous) await this.sessions.end(previous);
    const { sessionId } = await this.sessions.start(account);
    this.cookies.setSession(response, sessionId);
  }
}
