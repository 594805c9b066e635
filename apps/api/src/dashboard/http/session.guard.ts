import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import type { Viewer } from '../views/layout.js';
import { SessionsService, type Session as SignedInSession } from '../sessions.service.js';
import { DashboardCookies } from './cookies.js';
import { formRefused, SignInRequired } from './dashboard-error.filter.js';
import { csrfFieldOf, type DashboardRequest } from './dashboard-request.js';
import { sameToken } from './form-tokens.js';
import { returnPathOf } from './return-path.js';

export type Session = SignedInSession;

/**
 * The signed-in person behind the session cookie; without one, a redirect to sign in (`SignInRequired`) that
 * brings the person back to the page asked for.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly cookies: DashboardCookies,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const sessionId = this.cookies.session(request);
    const session = sessionId ? await this.sessions.find(sessionId) : undefined;
    if (session === undefined || session === 'expired') {
      throw new SignInRequired(session === 'expired', returnPathOf(request));
    }
    request.dashboardSession = session;
    return true;
  }
}

/** A signed-in POST carries the session's own CSRF token, or it is refused (403) before anything happens. */
@Injectable()
export class SessionCsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    const session = request.dashboardSession;
    if (!session || !sameToken(csrfFieldOf(request), session.csrfToken)) {
      throw formRefused(session && viewerOf(session));
    }
    return true;
  }
}

/** The route is for signed-in people; its POSTs carry the session's CSRF token. */
export const SignedIn = (): MethodDecorator & ClassDecorator =>
  applyDecorators(UseGuards(SessionGuard, SessionCsrfGuard));

/** The signed-in person (on a route under `@SignedIn()`). */
export const Session = createParamDecorator((_: unknown, context: ExecutionContext): Session => {
  const session = context.switchToHttp().getRequest<DashboardRequest>().dashboardSession;
  if (!session) throw new SignInRequired(false);
  return session;
});

/** The page header's view of the signed-in person. */
export function viewerOf(session: Session): Viewer {
  return {
    email: session.email,
    teamName: session.teamName,
    csrfToken: session.csrfToken,
    testMode: session.testMode,
  };
}
