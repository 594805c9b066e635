import { Get, Param, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock, isUuid, type KeyAccess } from '@app/common';
import { ApiKeysService, UsageRecorder, type KeyListing } from '../../api-keys/index.js';
import { Form, type Submitted } from '../forms/form.pipe.js';
import { CreateKeyForm, RollKeyForm } from '../forms/key.forms.js';
import { DashboardError, PageError } from '../http/dashboard-error.filter.js';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { ShownOnce } from '../http/shown-once.js';
import { Session, viewerOf } from '../http/session.guard.js';
import { DASHBOARD, type Notice } from '../views/layout.js';
import { GRACE_PERIODS, keysPage, revokePage, rollPage, type KeysView } from '../views/pages.js';

/**
 * API keys: the team's list, Create key, Revoke (after a confirmation page) and Roll with a grace period. A key made
 * (created or rolled) is shown once on the keys page the POST redirects to (`ShownOnce`): reloading that page, or
 * going back to it, makes no second key.
 */
@DashboardPages('keys', { signedIn: true })
export class KeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly recorder: UsageRecorder,
    private readonly clock: Clock,
    private readonly shownOnce: ShownOnce,
  ) {}

  @Get()
  async list(
    @Session() session: Session,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Query('welcome') welcome?: string,
    @Query('revoked') revoked?: string,
  ): Promise<string> {
    const notice: Notice = welcome
      ? { kind: 'success', text: `Welcome! Your team “${session.teamName}” is ready. Create a key to call the API.` }
      : revoked
        ? { kind: 'success', text: 'The key is revoked. Requests with it are refused from now on.' }
        : undefined;
    const created = this.shownOnce.take<NonNullable<KeysView['created']>>(
      request,
      response,
      'new_key',
      session.csrfToken,
    );
    return this.keysPage(session, { notice, created });
  }

  @Post()
  @Redirect(`${DASHBOARD}/keys`, 303)
  async create(
    @Session() session: Session,
    @Form(CreateKeyForm) submitted: Submitted<CreateKeyForm>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const { form } = submitted;
    const [problem, field] = submitted.valid
      ? [this.expiryProblem(form.expires), 'expires']
      : [submitted.problem, submitted.field];
    if (problem) {
      throw new PageError(400, await this.keysPage(session, { notice: { kind: 'error', text: problem, field }, form }));
    }
    const created = await this.keys.createKey(session.teamId, form.name, {
      access: form.access as KeyAccess, // a valid form holds one of the two
      expiresAt: form.expires ? new Date(`${form.expires}T00:00:00.000Z`) : null,
    });
    this.shownOnce.keep(response, 'new_key', session.csrfToken, { name: form.name, apiKey: created.apiKey });
  }

  @Get(':id/revoke')
  async revokeForm(@Session() session: Session, @Param('id') id: string): Promise<string> {
    return revokePage(viewerOf(session), await this.usableKey(session, id));
  }

  @Post(':id/revoke')
  @Redirect(`${DASHBOARD}/keys?revoked=1`, 303)
  async revoke(@Session() session: Session, @Param('id') id: string): Promise<void> {
    const key = await this.keyOf(session, id);
    if (key.revokedAt) throw new DashboardError(409, 'Key already revoked', 'This key was already revoked.');
    await this.keys.revoke(key.apiKeyId, session.teamId);
  }

  @Get(':id/roll')
  async rollForm(@Session() session: Session, @Param('id') id: string): Promise<string> {
    return rollPage(viewerOf(session), await this.rollableKey(session, id));
  }

  @Post(':id/roll')
  @Redirect(`${DASHBOARD}/keys`, 303)
  async roll(
    @Session() session: Session,
    @Param('id') id: string,
    @Form(RollKeyForm) submitted: Submitted<RollKeyForm>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const key = await this.rollableKey(session, id);
    const grace = GRACE_PERIODS.find((period) => period.value === submitted.form.grace);
    if (!submitted.valid || !grace) {
      const problem = submitted.valid ? 'Choose how long the old key keeps working.' : submitted.problem;
      throw new PageError(400, rollPage(viewerOf(session), key, { kind: 'error', text: problem, field: 'grace' }));
    }
    const created = await this.keys.roll(session.teamId, key.apiKeyId, grace.ms);
    const replaced =
      grace.ms === 0 ? 'The old key was revoked.' : `The old key keeps working for ${grace.label}, then stops.`;
    this.shownOnce.keep(response, 'new_key', session.csrfToken, { name: key.name, apiKey: created.apiKey, replaced });
  }

  private async keysPage(session: Session, view: Pick<KeysView, 'notice' | 'created' | 'form'>): Promise<string> {
    // This instance's pending `last used` first, so a key just used shows it.
    await this.recorder.flush();
    const keys = await this.keys.listKeys(session.teamId);
    return keysPage({ viewer: viewerOf(session), keys, now: this.clock.now(), ...view });
  }

  /** The date itself is the form's rule; that it lies ahead needs the clock. */
  private expiryProblem(expires: string): string | undefined {
    if (expires !== '' && Date.parse(`${expires}T00:00:00.000Z`) <= this.clock.now()) {
      return 'Expires must be a date in the future.';
    }
    return undefined;
  }

  /** One of the team's keys; another team's key, or a malformed id, is answered as missing. */
  private async keyOf(session: Session, id: string): Promise<KeyListing> {
    const key = isUuid(id)
      ? (await this.keys.listKeys(session.teamId)).find((candidate) => candidate.apiKeyId === id.toLowerCase())
      : undefined;
    if (!key) throw new DashboardError(404, 'Key not found', 'There is no such key in your team.', viewerOf(session));
    return key;
  }

  /** A key that still works and was not rolled yet (its replacement is the one to roll). */
  private async rollableKey(session: Session, id: string): Promise<KeyListing> {
    const key = await this.usableKey(session, id);
    if (key.replacedBy) {
      throw new DashboardError(
        409,
        'Key already rolled',
        'This key was rolled already: it keeps working until the end of its grace, and the key that replaced it is ' +
          'the one to roll.',
        viewerOf(session),
      );
    }
    return key;
  }

  /** A key that still works, for revoking or rolling. */
  private async usableKey(session: Session, id: string): Promise<KeyListing> {
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
}
