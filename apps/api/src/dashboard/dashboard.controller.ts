import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AccountInputError,
  AccountsService,
  ApiKeysService,
  AppConfig,
  Clock,
  DomainError,
  EVENT_TYPES,
  isUuid,
  type EventType,
  Public,
  UsageRecorder,
  type KeyAccess,
  type KeyListing,
} from '@app/common';
import { WebhookEndpointsService } from '../webhooks/index.js';
import { clientOf, refuse, SIGNED_UP_NOTICE } from './account-refusals.js';
import { clearCookie, cookiesOf, FORM_COOKIE, SESSION_COOKIE, setCookie } from './cookies.js';
import { DashboardErrorFilter, DashboardError } from './dashboard-error.filter.js';
import { SessionsService, type Session } from './sessions.service.js';
import { UsageReportService } from './usage-report.service.js';
import { DASHBOARD_CSS, DASHBOARD_JS } from './views/assets.js';
import { DASHBOARD, type Notice, type Viewer } from './views/layout.js';
import {
  GRACE_PERIODS,
  keysPage,
  revokePage,
  rollPage,
  signInPage,
  signUpPage,
  usagePage,
  type KeysView,
} from './views/pages.js';
import { endpointPage, webhooksPage, type EndpointForm, type ShownSecret } from './views/webhook-pages.js';

type Form = Record<string, unknown>;

const field = (form: Form, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The developer dashboard: server-rendered pages under `/dashboard` on the API's own port (no API key, no API
 * rate limits, not in the OpenAPI document). Forms post `application/x-www-form-urlencoded`; every POST carries
 * a CSRF token — the session's own once signed in, before that the `ppa_form` cookie's value (double submit) —
 * and without a valid one it is refused with 403 and changes nothing.
 */
@Public()
@ApiExcludeController()
@UseFilters(DashboardErrorFilter)
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly usage: UsageReportService,
    private readonly recorder: UsageRecorder,
    private readonly webhooks: WebhookEndpointsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private get cookieFlags() {
    return { secure: this.config.isProduction };
  }

  private get signUpEnabled(): boolean {
    return this.config.DASHBOARD_SIGNUP ?? !this.config.isProduction;
  }

  @Get()
  async home(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.sessionOf(request);
    response.redirect(303, `${DASHBOARD}/${session && session !== 'expired' ? 'keys' : 'sign-in'}`);
  }

  @Get('assets/dashboard.css')
  css(@Res() response: Response): void {
    response.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(DASHBOARD_CSS);
  }

  @Get('assets/dashboard.js')
  js(@Res() response: Response): void {
    response.type('text/javascript').setHeader('Cache-Control', 'public, max-age=3600').send(DASHBOARD_JS);
  }

  @Get('sign-up')
  signUpForm(@Req() request: Request, @Res() response: Response): void {
    send(response, 200, signUpPage({ csrfToken: this.formToken(request, response), enabled: this.signUpEnabled }));
  }

  @Post('sign-up')
  async signUp(@Req() request: Request, @Res() response: Response): Promise<void> {
    this.checkFormToken(request);
    const form = request.body as Form;
    const teamName = field(form, 'teamName');
    const email = field(form, 'email');
    const again = (status: number, notice: Notice) =>
      send(
        response,
        status,
        signUpPage({
          csrfToken: this.formToken(request, response),
          enabled: this.signUpEnabled,
          notice,
          teamName,
          email,
        }),
      );
    if (!this.signUpEnabled) {
      again(403, { kind: 'error', text: 'Sign-up is turned off on this service.' });
      return;
    }
    try {
      // Neutral answer (a taken email is answered as a new one), sign-ups counted per client address, and the
      // password-hashing gate (issue 21, points 3 and 5): the rules live in AccountsService.
      const result = await this.accounts.signUp(teamName, email, field(form, 'password'), clientOf(request));
      if (result.outcome !== 'submitted') {
        again(429, { kind: 'error', text: refuse(response, result, 'sign-up') });
        return;
      }
      response.redirect(303, `${DASHBOARD}/sign-in?reason=signed-up`);
    } catch (error) {
      if (error instanceof AccountInputError) again(400, { kind: 'error', text: error.message });
      else throw error;
    }
  }

  @Get('sign-in')
  signInForm(@Req() request: Request, @Res() response: Response): void {
    const reason = request.query.reason;
    const notice: Notice =
      reason === 'expired'
        ? { kind: 'info', text: 'Your session expired. Sign in again.' }
        : reason === 'signed-out'
          ? { kind: 'success', text: 'You are signed out.' }
          : reason === 'signed-up'
            ? { kind: 'success', text: SIGNED_UP_NOTICE }
            : undefined;
    send(response, 200, signInPage({ csrfToken: this.formToken(request, response), notice }));
  }

  @Post('sign-in')
  async signIn(@Req() request: Request, @Res() response: Response): Promise<void> {
    this.checkFormToken(request);
    const form = request.body as Form;
    const email = field(form, 'email');
    const result = await this.accounts.signIn(email, field(form, 'password'), clientOf(request));
    const again = (status: number, text: string) =>
      send(
        response,
        status,
        signInPage({ csrfToken: this.formToken(request, response), email, notice: { kind: 'error', text } }),
      );
    if (result.outcome === 'throttled') {
      const minutes = Math.ceil(result.retryAfterMs / 60_000);
      response.setHeader('Retry-After', Math.ceil(result.retryAfterMs / 1000));
      again(429, `Too many failed sign-ins for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      return;
    }
    if (result.outcome === 'busy') {
      again(429, refuse(response, result, 'sign-in')); // the password-hashing gate (issue 21, point 3)
      return;
    }
    if (result.outcome === 'wrong') {
      again(401, 'Wrong email or password.');
      return;
    }
    await this.beginSession(request, response, result.account);
    response.redirect(303, `${DASHBOARD}/keys${result.welcome ? '?welcome=1' : ''}`);
  }

  @Post('sign-out')
  async signOut(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const sessionId = cookiesOf(request).get(SESSION_COOKIE);
    if (sessionId) await this.sessions.end(sessionId);
    clearCookie(response, SESSION_COOKIE, this.cookieFlags);
    response.redirect(303, `${DASHBOARD}/sign-in?reason=signed-out`);
  }

  @Get('keys')
  async keysList(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    const notice: Notice = request.query.welcome
      ? { kind: 'success', text: `Welcome! Your team “${session.teamName}” is ready. Create a key to call the API.` }
      : request.query.revoked
        ? { kind: 'success', text: 'The key is revoked. Requests with it are refused from now on.' }
        : undefined;
    await this.renderKeys(response, session, 200, { notice });
  }

  @Post('keys')
  async createKey(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const form = request.body as Form;
    const values = { name: field(form, 'name'), access: field(form, 'access'), expires: field(form, 'expires') };
    const problem = this.keyFormProblem(values);
    if (problem) {
      await this.renderKeys(response, session, 400, { notice: { kind: 'error', text: problem }, form: values });
      return;
    }
    const created = await this.keys.createKey(session.teamId, values.name.trim(), {
      access: values.access as KeyAccess,
      expiresAt: values.expires ? new Date(`${values.expires}T00:00:00.000Z`) : null,
    });
    await this.renderKeys(response, session, 201, { created: { name: values.name.trim(), apiKey: created.apiKey } });
  }

  @Get('keys/:id/revoke')
  async revokeForm(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    const key = await this.usableKey(session, request.params.id);
    send(response, 200, revokePage(viewerOf(session), key));
  }

  @Post('keys/:id/revoke')
  async revoke(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const key = await this.keyOf(session, request.params.id);
    if (key.revokedAt) throw new DashboardError(409, 'Key already revoked', 'This key was already revoked.');
    await this.keys.revoke(key.apiKeyId, session.teamId);
    response.redirect(303, `${DASHBOARD}/keys?revoked=1`);
  }

  @Get('keys/:id/roll')
  async rollForm(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    const key = await this.usableKey(session, request.params.id);
    send(response, 200, rollPage(viewerOf(session), key));
  }

  @Post('keys/:id/roll')
  async roll(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const key = await this.usableKey(session, request.params.id);
    const grace = GRACE_PERIODS.find((period) => period.value === field(request.body as Form, 'grace'));
    if (!grace) {
      send(
        response,
        400,
        rollPage(viewerOf(session), key, { kind: 'error', text: 'Choose how long the old key keeps working.' }),
      );
      return;
    }
    const created = await this.keys.roll(session.teamId, key.apiKeyId, grace.ms);
    const replaced =
      grace.ms === 0 ? 'The old key was revoked.' : `The old key keeps working for ${grace.label}, then stops.`;
    await this.renderKeys(response, session, 201, { created: { name: key.name, apiKey: created.apiKey, replaced } });
  }

  @Get('usage')
  async usagePage(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    const { daily, recent } = await this.usage.report(session.teamId);
    send(response, 200, usagePage(viewerOf(session), daily, recent));
  }

  @Get('webhooks')
  async webhooksList(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    await this.renderWebhooks(response, session, 200, {});
  }

  @Post('webhooks')
  async addEndpoint(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const form = endpointFormOf(request.body as Form);
    try {
      const created = await this.webhooks.create(session.teamId, endpointInput(form));
      const shown = { title: `Endpoint added: ${created.url}`, secret: created.secret };
      await this.renderWebhooks(response, session, 201, { shown });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await this.renderWebhooks(response, session, 400, { notice: { kind: 'error', text: error.message }, form });
    }
  }

  @Get('webhooks/:id')
  async endpoint(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    const notices: Record<string, Notice> = {
      saved: { kind: 'success', text: 'Saved.' },
      disabled: { kind: 'success', text: 'Disabled: nothing is queued for it until you enable it again.' },
      enabled: { kind: 'success', text: 'Enabled.' },
      tested: { kind: 'success', text: 'Test event queued: it appears in the delivery log below.' },
      retried: { kind: 'success', text: 'Delivery queued again.' },
    };
    const done = typeof request.query.done === 'string' ? notices[request.query.done] : undefined;
    await this.renderEndpoint(response, session, request.params.id, 200, { notice: done });
  }

  @Post('webhooks/:id')
  async editEndpoint(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const id = this.endpointId(session, request.params.id);
    const form = endpointFormOf(request.body as Form);
    try {
      await this.webhooks.update(session.teamId, id, endpointInput(form));
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not_found') throw this.asPageError(error, session);
      await this.renderEndpoint(response, session, id, 400, { notice: { kind: 'error', text: error.message }, form });
      return;
    }
    response.redirect(303, `${DASHBOARD}/webhooks/${id}?done=saved`);
  }

  @Post('webhooks/:id/:action')
  async endpointAction(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const id = this.endpointId(session, request.params.id);
    try {
      switch (request.params.action) {
        case 'disable':
          await this.webhooks.update(session.teamId, id, { enabled: false });
          break;
        case 'enable':
          await this.webhooks.update(session.teamId, id, { enabled: true });
          break;
        case 'test':
          await this.webhooks.sendTest(session.teamId, id);
          break;
        case 'rotate-secret': {
          const rotated = await this.webhooks.rotateSecret(session.teamId, id);
          const shown = { title: 'New signing secret', secret: rotated.secret };
          await this.renderEndpoint(response, session, id, 200, {
            shown,
            notice: { kind: 'info', text: 'The old secret also signs deliveries for the next 24 hours.' },
          });
          return;
        }
        default:
          throw new DashboardError(404, 'Page not found', 'There is no such page in the dashboard.', viewerOf(session));
      }
    } catch (error) {
      throw this.asPageError(error, session);
    }
    const done = { disable: 'disabled', enable: 'enabled', test: 'tested' }[request.params.action as 'test'];
    response.redirect(303, `${DASHBOARD}/webhooks/${id}?done=${done}`);
  }

  @Post('webhooks/:id/deliveries/:deliveryId/retry')
  async retryDelivery(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.requireSession(request, response);
    if (!session) return;
    this.checkSessionToken(request, session);
    const id = this.endpointId(session, request.params.id);
    const deliveryId = this.endpointId(session, request.params.deliveryId);
    try {
      await this.webhooks.retry(session.teamId, id, deliveryId);
    } catch (error) {
      throw this.asPageError(error, session);
    }
    response.redirect(303, `${DASHBOARD}/webhooks/${id}?done=retried`);
  }

  private async renderWebhooks(
    response: Response,
    session: Session,
    status: number,
    view: { notice?: Notice; shown?: ShownSecret; form?: EndpointForm },
  ): Promise<void> {
    const endpoints = await this.webhooks.list(session.teamId, { page: 1, pageSize: 50 });
    send(response, status, webhooksPage({ viewer: viewerOf(session), endpoints: endpoints.data, ...view }));
  }

  private async renderEndpoint(
    response: Response,
    session: Session,
    rawId: string | string[] | undefined,
    status: number,
    view: { notice?: Notice; shown?: ShownSecret; form?: EndpointForm },
  ): Promise<void> {
    const id = this.endpointId(session, rawId);
    try {
      const endpoint = await this.webhooks.get(session.teamId, id);
      const deliveries = await this.webhooks.deliveries(session.teamId, id, { page: 1, pageSize: 50 });
      send(
        response,
        status,
        endpointPage({ viewer: viewerOf(session), endpoint, deliveries: deliveries.data, ...view }),
      );
    } catch (error) {
      throw this.asPageError(error, session);
    }
  }

  /** A path id of the team's endpoints (or deliveries): anything else is "not found". */
  private endpointId(session: Session, id: string | string[] | undefined): string {
    if (typeof id === 'string' && isUuid(id)) return id.toLowerCase();
    throw new DashboardError(
      404,
      'Endpoint not found',
      'There is no such webhook endpoint in your team.',
      viewerOf(session),
    );
  }

  /** A service failure as a page: not found, a conflict (a disabled endpoint), anything else as it is. */
  private asPageError(error: unknown, session: Session): unknown {
    if (!(error instanceof DomainError)) return error;
    const status = error.kind === 'not_found' ? 404 : error.kind === 'conflict' ? 409 : 400;
    const title = status === 404 ? 'Not found' : 'Not done';
    return new DashboardError(status, title, error.message, viewerOf(session));
  }

  private async renderKeys(
    response: Response,
    session: Session,
    status: number,
    view: Pick<KeysView, 'notice' | 'created' | 'form'>,
  ): Promise<void> {
    // This instance's pending `last used` first, so a key just used shows it.
    await this.recorder.flush();
    const keys = await this.keys.listKeys(session.teamId);
    send(response, status, keysPage({ viewer: viewerOf(session), keys, now: this.clock.now(), ...view }));
  }

  private keyFormProblem({
    name,
    access,
    expires,
  }: {
    name: string;
    access: string;
    expires: string;
  }): string | undefined {
    if (name.trim() === '') return 'Name is required.';
    if (name.trim().length > 100) return 'Name must be at most 100 characters.';
    if (access !== 'read_write' && access !== 'read_only') return 'Choose the access: Read and write or Read only.';
    if (expires !== '') {
      const match = DAY.exec(expires);
      const at = match ? Date.parse(`${expires}T00:00:00.000Z`) : Number.NaN;
      if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== expires) {
        return 'Expires must be a date like 2027-01-31.';
      }
      if (at <= this.clock.now()) return 'Expires must be a date in the future.';
    }
    return undefined;
  }

  /** One of the team's keys; another team's key, or a malformed id, is answered as missing. */
  private async keyOf(session: Session, id: string | string[] | undefined): Promise<KeyListing> {
    const key =
      typeof id === 'string' && isUuid(id)
        ? (await this.keys.listKeys(session.teamId)).find((candidate) => candidate.apiKeyId === id.toLowerCase())
        : undefined;
    if (!key) throw new DashboardError(404, 'Key not found', 'There is no such key in your team.', viewerOf(session));
    return key;
  }

  /** A key that still works, for revoking or rolling. */
  private async usableKey(session: Session, id: string | string[] | undefined): Promise<KeyListing> {
    const key = await this.keyOf(session, id);
    if (key.revokedAt) {
      throw new DashboardError(
        409,
        'Key revoked',
        'This key is revoked: it cannot be used or rolled.',
        viewerOf(session),
      );
    }
    if (key.expiresAt && Date.parse(key.expiresAt) <= this.clock.now()) {
      throw new DashboardError(
        409,
        'Key expired',
        'This key has expired: create a new one instead.',
        viewerOf(session),
      );
    }
    return key;
  }

  private async sessionOf(request: Request): Promise<Session | 'expired' | undefined> {
    const sessionId = cookiesOf(request).get(SESSION_COOKIE);
    return sessionId ? this.sessions.find(sessionId) : undefined;
  }

  /** The signed-in person, or a redirect to the sign-in page (saying so when the session expired). */
  private async requireSession(request: Request, response: Response): Promise<Session | undefined> {
    const session = await this.sessionOf(request);
    if (session && session !== 'expired') return session;
    if (session === 'expired') clearCookie(response, SESSION_COOKIE, this.cookieFlags);
    response.redirect(303, `${DASHBOARD}/sign-in${session === 'expired' ? '?reason=expired' : ''}`);
    return undefined;
  }

  /** A fresh session id at every sign-in; a session the browser still held ends. */
  private async beginSession(request: Request, response: Response, account: Parameters<SessionsService['start']>[0]) {
    const previous = cookiesOf(request).get(SESSION_COOKIE);
    if (previous) await this.sessions.end(previous);
    const { sessionId } = await this.sessions.start(account);
    setCookie(response, SESSION_COOKIE, sessionId, this.cookieFlags);
  }

  /** The token for forms shown before sign-in: the `ppa_form` cookie's value, set here when missing. */
  private formToken(request: Request, response: Response): string {
    const existing = cookiesOf(request).get(FORM_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    setCookie(response, FORM_COOKIE, token, this.cookieFlags);
    return token;
  }

  private checkFormToken(request: Request): void {
    const expected = cookiesOf(request).get(FORM_COOKIE) ?? '';
    if (!sameToken(field(request.body as Form, '_csrf'), expected)) throw csrfRefused();
  }

  private checkSessionToken(request: Request, session: Session): void {
    if (!sameToken(field(request.body as Form, '_csrf'), session.csrfToken)) throw csrfRefused(viewerOf(session));
  }
}

/** The endpoint form as sent (a multiple select sends one value per chosen type). */
function endpointFormOf(form: Form): EndpointForm {
  const raw = form.types;
  const types = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).filter(
    (type): type is string => typeof type === 'string',
  );
  return { url: field(form, 'url').trim(), description: field(form, 'description').trim(), types };
}

/** The service's input: no description is null, no type chosen means every type. */
function endpointInput(form: EndpointForm): { url: string; description: string | null; types: EventType[] | null } {
  const types = (form.types ?? []).filter((type): type is EventType => (EVENT_TYPES as string[]).includes(type));
  return { url: form.url ?? '', description: form.description || null, types: types.length > 0 ? types : null };
}

function csrfRefused(viewer?: Viewer): DashboardError {
  return new DashboardError(
    403,
    'Form refused',
    'This form could not be verified (its security token is missing or out of date). Nothing was changed. ' +
      'Go back, reload the page and try again.',
    viewer,
  );
}

function viewerOf(session: Session): Viewer {
  return { email: session.email, teamName: session.teamName, csrfToken: session.csrfToken };
}

function send(response: Response, status: number, body: string): void {
  response.status(status).type('html').setHeader('Cache-Control', 'no-store').send(body);
}
