import { Injectable } from '@nestjs/common';
import { PeriodicTask } from '@app/common';
import { AccountsService } from './accounts/index.js';
import { SessionsService } from './sessions.service.js';

/**
 * Every 10 minutes on every instance: sessions idle past their limit or past their absolute lifetime, failed sign-ins
 * and sign-up attempts older than their throttling windows. Lookups ignore both anyway; this only bounds the tables.
 */
@Injectable()
export class DashboardCleanup extends PeriodicTask {
  constructor(
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
  ) {
    super(10 * 60_000, 'Dashboard');
  }

  async run(): Promise<void> {
    await this.sessions.deleteExpired();
    await this.accounts.deleteOldFailures();
  }
}
