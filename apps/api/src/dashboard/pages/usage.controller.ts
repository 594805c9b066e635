import { Get } from '@nestjs/common';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { Session, viewerOf } from '../http/session.guard.js';
import { UsageReportService } from '../usage-report.service.js';
import { usagePage } from '../views/pages.js';

/** Usage: each key's requests per day for the last 7 days, and the team's last 100 requests. */
@DashboardPages('usage', { signedIn: true })
export class UsageController {
  constructor(private readonly usage: UsageReportService) {}

  @Get()
  async show(@Session() session: Session): Promise<string> {
    const { daily, recent } = await this.usage.report(session.teamId);
    return usagePage(viewerOf(session), daily, recent);
  }
}
