import { Get, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Actor } from '@app/common';
import { ApiKeysService } from '../../api-keys/index.js';
import { SandboxService } from '../../sandbox/index.js';
import { Form, type Submitted } from '../forms/form.pipe.js';
import { SandboxResetForm, TestModeForm } from '../forms/test-mode.forms.js';
import { DashboardCookies } from '../http/cookies.js';
import { DashboardError } from '../http/dashboard-error.filter.js';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { Session, viewerOf } from '../http/session.guard.js';
import { ShownOnce } from '../http/shown-once.js';
import { SessionsService } from '../sessions.service.js';
import { DASHBOARD, type Notice } from '../views/layout.js';
import { sandboxConfirmPage, sandboxPage, sandboxResult } from '../views/sandbox-page.js';

/**
 * Test mode (issue 26): the header's switch, kept with the session, and the sandbox's page with "Reset sandbox"
 * and "Load sample data" (each asks first on a page of its own, then redirects back with what it did). Every other
 * page shows the sandbox in test mode by itself: the session's `teamId` is the sandbox's then.
 */
@DashboardPages(undefined, { signedIn: true })
export class TestModeController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly sandboxes: SandboxService,
    private readonly sessions: SessionsService,
    private readonly cookies: DashboardCookies,
    private readonly shownOnce: ShownOnce,
  ) {}

  @Post('test-mode')
  @Redirect(`${DASHBOARD}/keys`, 303)
  async switch(
    @Session() session: Session,
    @Form(TestModeForm) submitted: Submitted<TestModeForm>,
    @Req() request: Request,
  ): Promise<{ url: string }> {
    const { form } = submitted;
    if (!submitted.valid || form.testMode === '' || form.back === '') {
      const problem = submitted.valid ? 'This form is not valid.' : submitted.problem;
      throw new DashboardError(400, 'Not done', `${problem} Nothing was changed.`, viewerOf(session));
    }
    const on = form.testMode === 'on';
    // The sandbox is made on first use, before the session can point at it.
    if (on) await this.keys.sandboxOf(session.liveTeamId);
    const sessionId = this.cookies.session(request);
    if (sessionId) await this.sessions.setTestMode(sessionId, on);
    return { url: `${DASHBOARD}/${!on && form.back === 'sandbox' ? 'keys' : form.back}` };
  }

  @Get('sandbox')
  show(@Session() session: Session, @Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    this.requireTestMode(session);
    // What the reset just done did, once (post/redirect/get: a reload resets nothing again).
    const notice = this.shownOnce.take<NonNullable<Notice>>(request, response, 'sandbox_result', session.csrfToken);
    return sandboxPage({ viewer: viewerOf(session), sandboxTeamId: session.teamId, notice });
  }

  /** A reset cannot be undone: its button asks first, on a page of its own. */
  @Get('sandbox/reset')
  confirmReset(@Session() session: Session, @Query('sampleData') sampleData?: unknown): string {
    this.requireTestMode(session);
    if (sampleData !== 'yes' && sampleData !== 'no') {
      throw new DashboardError(404, 'Page not found', 'There is no such page in the dashboard.', viewerOf(session));
    }
    return sandboxConfirmPage(viewerOf(session), sampleData === 'yes');
  }

  @Post('sandbox/reset')
  @Redirect(`${DASHBOARD}/sandbox`, 303)
  async reset(
    @Session() session: Session,
    @Form(SandboxResetForm) submitted: Submitted<SandboxResetForm>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    // The form has only its button's hidden field: an invalid one was not sent by the page, so it is not shown again.
    if (!submitted.valid || submitted.form.sampleData === '') {
      const problem = submitted.valid ? 'Choose whether to load the sample data.' : submitted.problem;
      throw new DashboardError(400, 'Not done', `${problem} Nothing was changed.`, viewerOf(session));
    }
    this.requireTestMode(session);
    // Asked of the live team, not taken from the session: whatever the session holds, this is the sandbox.
    const sandboxTeamId = await this.keys.sandboxOf(session.liveTeamId);
    const sampleData = submitted.form.sampleData === 'yes';
    const result = await this.sandboxes.resetTeam(sandboxTeamId, this.authorOf(session), sampleData);
    const notice: Notice = { kind: 'success', text: sandboxResult(result) };
    this.shownOnce.keep(response, 'sandbox_result', session.csrfToken, notice);
  }

  /**
   * Who wrote the sample data (its records' history, its notes' `createdBy`). An `Actor` is an API key, an import or
   * the service, and the sample loader takes a key's shape; the dashboard's person is named instead, under their
   * user id, so the history says the sample came from the dashboard and from whom (docs/dashboard.md, "Test mode").
   */
  private authorOf(session: Session): Extract<Actor, { type: 'api_key' }> {
    return { type: 'api_key', id: session.userId, name: `Dashboard (${session.email})` };
  }

  private requireTestMode(session: Session): void {
    if (!session.testMode) {
      throw new DashboardError(
        409,
        'Test mode is off',
        'The sandbox is shown in Test mode only: turn on Test mode in the header first. Nothing was changed.',
        viewerOf(session),
      );
    }
  }
}
