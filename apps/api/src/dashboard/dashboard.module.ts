import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/index.js';
import { DashboardCleanup } from './dashboard.cleanup.js';
import { DashboardController } from './dashboard.controller.js';
import { FaviconController } from './favicon.controller.js';
import { SessionsService } from './sessions.service.js';
import { UsageReportService } from './usage-report.service.js';

/** The developer dashboard (`/dashboard`): accounts, API keys and usage, as HTML pages on the API's port. */
@Module({
  imports: [WebhooksModule],
  controllers: [DashboardController, FaviconController],
  providers: [SessionsService, UsageReportService, DashboardCleanup],
})
export class DashboardModule {}
