import { Module } from '@nestjs/common';
import { ImportsModule } from '../imports/index.js';
import { SandboxModule } from '../sandbox/index.js';
import { WebhooksModule } from '../webhooks/index.js';
import { AccountsModule } from './accounts/index.js';
import { DashboardCleanup } from './dashboard.cleanup.js';
import { FaviconController } from './favicon.controller.js';
import { DashboardCookies } from './http/cookies.js';
import { ShownOnce } from './http/shown-once.js';
import { FormTokens } from './http/form-tokens.js';
import { DashboardSecret } from './http/dashboard-secret.js';
import { AssetsController } from './pages/assets.controller.js';
import { AuthController } from './pages/auth.controller.js';
import { ImportsPagesController } from './pages/imports.controller.js';
import { KeysController } from './pages/keys.controller.js';
import { TestModeController } from './pages/test-mode.controller.js';
import { UsageController } from './pages/usage.controller.js';
import { WebhooksController } from './pages/webhooks.controller.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { UsageReportRepository } from './usage-report.repository.js';
import { UsageReportService } from './usage-report.service.js';

/**
 * The developer dashboard (`/dashboard`): accounts, API keys, usage, webhooks and imports (live or, with the "Test mode" switch, the sandbox's), as HTML pages on the API's
 * port, one controller per page (`pages/`); the sessions, CSRF and form plumbing is in `http/` and `forms/`.
 */
@Module({
  imports: [AccountsModule, ImportsModule, SandboxModule, WebhooksModule],
  controllers: [
    AssetsController,
    AuthController,
    KeysController,
    UsageController,
    WebhooksController,
    ImportsPagesController,
    TestModeController,
    FaviconController,
  ],
  providers: [
    SessionsService,
    SessionsRepository,
    UsageReportService,
    UsageReportRepository,
    DashboardCleanup,
    DashboardCookies,
    DashboardSecret,
    FormTokens,
    ShownOnce,
  ],
})
export class DashboardModule {}
