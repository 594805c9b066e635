import { Get, Param, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, isUuid, type EventType } from '@app/common';
import { EVENT_TYPES } from '../../resources.js';
import { WebhookEndpointsService } from '../../webhooks/index.js';
import { Form, type Submitted } from '../forms/form.pipe.js';
import { EndpointFormFields } from '../forms/webhook.forms.js';
import { DashboardError, PageError } from '../http/dashboard-error.filter.js';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { Session, viewerOf } from '../http/session.guard.js';
import { ShownOnce } from '../http/shown-once.js';
import { DASHBOARD, type Notice } from '../views/layout.js';
import { endpointPage, webhooksPage, type EndpointForm, type ShownSecret } from '../views/webhook-pages.js';

interface PageView {
  notice?: Notice;
  shown?: ShownSecret;
  form?: EndpointForm;
}

const DONE: Record<string, Notice> = {
  saved: { kind: 'success', text: 'Saved.' },
  disabled: { kind: 'success', text: 'Disabled: nothing is queued for it until you enable it again.' },
  enabled: { kind: 'success', text: 'Enabled.' },
  tested: { kind: 'success', text: 'Test event queued: it appears in the delivery log below.' },
  retried: { kind: 'success', text: 'Delivery queued again.' },
};

/** The service's input: no description is null, no type chosen means every type. */
function endpointInput(form: EndpointFormFields): {
  url: string;
  description: string | null;
  types: EventType[] | null;
} {
  const types = form.types.filter((type): type is EventType => (EVENT_TYPES as string[]).includes(type));
  return { url: form.url, description: form.description || null, types: types.length > 0 ? types : null };
}

/**
 * A new signing secret on its way to the page that shows it once (`ShownOnce`): the list's (an endpoint added) or
 * its endpoint's (a secret rotated), and no other. Only ids and the secret travel (the cookie stays small whatever
 * the endpoint's URL); the page says the rest.
 */
interface NewSecret {
  endpointId: string;
  secret: string;
  rotated: boolean;
}

const ROTATED_NOTICE: Notice = { kind: 'info', text: 'The old secret also signs deliveries for the next 24 hours.' };

/**
 * Webhooks: the team's endpoints, one endpoint's page with its actions, and its delivery log. A new signing secret
 * (an endpoint added, a secret rotated) is shown once on the page the POST redirects to: reloading it makes no second
 * endpoint and rotates nothing again.
 */
@DashboardPages('webhooks', { signedIn: true })
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhookEndpointsService,
    private readonly shownOnce: ShownOnce,
  ) {}

  @Get()
  list(
    @Session() session: Session,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const kept = this.newSecret(session, request, response);
    return this.listPage(session, {}, kept && !kept.rotated ? kept : undefined);
  }

  @Post()
  @Redirect(`${DASHBOARD}/webhooks`, 303)
  async add(
    @Session() session: Session,
    @Form(EndpointFormFields) submitted: Submitted<EndpointFormFields>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const { form } = submitted;
    const refuse = async (text: string, field?: string) =>
      new PageError(400, await this.listPage(session, { notice: { kind: 'error', text, field }, form }));
    if (!submitted.valid) throw await refuse(submitted.problem, submitted.field);
    try {
      const created = await this.webhooks.create(session.teamId, endpointInput(form));
      this.keepSecret(response, session, { endpointId: created.id, secret: created.secret, rotated: false });
    } catch (error) {
      if (error instanceof DomainError) throw await refuse(error.message, error.field);
      throw error;
    }
  }

  @Get(':id')
  show(
    @Session() session: Session,
    @Param('id') id: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query('done') done?: string,
  ): Promise<string> {
    const kept = this.newSecret(session, request, response);
    const view: PageView =
      kept?.rotated && kept.endpointId === id.toLowerCase()
        ? { shown: { title: 'New signing secret', secret: kept.secret }, notice: ROTATED_NOTICE }
        : { notice: done ? DONE[done] : undefined };
    return this.endpointPage(session, id, view);
  }

  @Post(':id')
  @Redirect(`${DASHBOARD}/webhooks`, 303)
  async edit(
    @Session() session: Session,
    @Param('id') rawId: string,
    @Form(EndpointFormFields) submitted: Submitted<EndpointFormFields>,
  ): Promise<{ url: string }> {
    const id = this.endpointId(session, rawId);
    const { form } = submitted;
    const refuse = async (text: string, field?: string) =>
      new PageError(400, await this.endpointPage(session, id, { notice: { kind: 'error', text, field }, form }));
    if (!submitted.valid) throw await refuse(submitted.problem, submitted.field);
    try {
      await this.webhooks.update(session.teamId, id, endpointInput(form));
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not_found') throw this.asPageError(error, session);
      throw await refuse(error.message, error.field);
    }
    return { url: `${DASHBOARD}/webhooks/${id}?done=saved` };
  }

  @Post(':id/rotate-secret')
  @Redirect(`${DASHBOARD}/webhooks`, 303)
  async rotateSecret(
    @Session() session: Session,
    @Param('id') rawId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ url: string }> {
    const id = this.endpointId(session, rawId);
    const rotated = await this.webhooks.rotateSecret(session.teamId, id).catch((error: unknown) => {
      throw this.asPageError(error, session);
    });
    this.keepSecret(response, session, { endpointId: id, secret: rotated.secret, rotated: true });
    return { url: `${DASHBOARD}/webhooks/${id}` };
  }

  @Post(':id/:action')
  @Redirect(`${DASHBOARD}/webhooks`, 303)
  async act(
    @Session() session: Session,
    @Param('id') rawId: string,
    @Param('action') action: string,
  ): Promise<{ url: string }> {
    const id = this.endpointId(session, rawId);
    const actions: Record<string, { run: () => Promise<unknown>; done: string }> = {
      disable: { run: () => this.webhooks.update(session.teamId, id, { enabled: false }), done: 'disabled' },
      enable: { run: () => this.webhooks.update(session.teamId, id, { enabled: true }), done: 'enabled' },
      test: { run: () => this.webhooks.sendTest(session.teamId, id), done: 'tested' },
    };
    const chosen = Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (!chosen) {
      throw new DashboardError(404, 'Page not found', 'There is no such page in the dashboard.', viewerOf(session));
    }
    await chosen.run().catch((error: unknown) => {
      throw this.asPageError(error, session);
    });
    return { url: `${DASHBOARD}/webhooks/${id}?done=${chosen.done}` };
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @Redirect(`${DASHBOARD}/webhooks`, 303)
  async retry(
    @Session() session: Session,
    @Param('id') rawId: string,
    @Param('deliveryId') rawDeliveryId: string,
  ): Promise<{ url: string }> {
    const id = this.endpointId(session, rawId);
    const deliveryId = this.endpointId(session, rawDeliveryId);
    await this.webhooks.retry(session.teamId, id, deliveryId).catch((error: unknown) => {
      throw this.asPageError(error, session);
    });
    return { url: `${DASHBOARD}/webhooks/${id}?done=retried` };
  }

  private keepSecret(response: Response, session: Session, secret: NewSecret): void {
    this.shownOnce.keep(response, 'new_secret', session.csrfToken, secret);
  }

  /** The new secret a POST of this session kept for the next page, once. */
  private newSecret(session: Session, request: Request, response: Response): NewSecret | undefined {
    return this.shownOnce.take<NewSecret>(request, response, 'new_secret', session.csrfToken);
  }

  /** The list, with the secret of the endpoint just `added` shown once. */
  private async listPage(session: Session, view: PageView, added?: NewSecret): Promise<string> {
    const endpoints = await this.webhooks.list(session.teamId, { page: 1, pageSize: 50 });
    const url = added && endpoints.data.find((endpoint) => endpoint.id === added.endpointId)?.url;
    const shown: ShownSecret | undefined = added && {
      title: url ? `Endpoint added: ${url}` : 'Endpoint added',
      secret: added.secret,
    };
    return webhooksPage({ viewer: viewerOf(session), endpoints: endpoints.data, ...view, ...(shown ? { shown } : {}) });
  }

  private async endpointPage(session: Session, rawId: string, view: PageView): Promise<string> {
    const id = this.endpointId(session, rawId);
    try {
      const endpoint = await this.webhooks.get(session.teamId, id);
      const deliveries = await this.webhooks.deliveries(session.teamId, id, { page: 1, pageSize: 50 });
      return endpointPage({ viewer: viewerOf(session), endpoint, deliveries: deliveries.data, ...view });
    } catch (error) {
      throw this.asPageError(error, session);
    }
  }

  /** A path id of the team's endpoints (or deliveries): anything else is "not found". */
  private endpointId(session: Session, id: string): string {
    if (isUuid(id)) return id.toLowerCase();
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
}
