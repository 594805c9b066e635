import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { USAGE_DAYS, RECENT_REQUESTS, UsageRecorder } from '../api-keys/index.js';
import { UsageReportRepository } from './usage-report.repository.js';
import type { DailyUsage, RecentRequestView } from './views/usage-page.js';

const DAY_MS = 86_400_000;

/** What the usage page shows, read for one team (every query is scoped by it). */
@Injectable()
export class UsageReportService {
  constructor(
    private readonly usage: UsageReportRepository,
    private readonly clock: Clock,
    private readonly recorder: UsageRecorder,
  ) {}

  async report(teamId: string): Promise<{ daily: DailyUsage[]; recent: RecentRequestView[] }> {
    // This instance's own latest requests first, so a person sees what they just did.
    await this.recorder.flush();
    const now = this.clock.now();
    const days = Array.from({ length: USAGE_DAYS }, (_, i) => new Date(now - i * DAY_MS).toISOString().slice(0, 10));
    const counts = await this.usage.dailyCounts(teamId, days[days.length - 1]);
    const byKey = new Map<string, DailyUsage>();
    for (const row of counts) {
      let key = byKey.get(row.apiKeyId);
      if (!key) {
        key = {
          apiKeyId: row.apiKeyId,
          name: row.name,
          prefix: row.prefix,
          days: days.map((day) => ({ day, ok: 0, clientErrors: 0, limited: 0, serverErrors: 0 })),
        };
        byKey.set(row.apiKeyId, key);
      }
      const day = key.days.find((entry) => entry.day === row.day);
      if (!day || !row.statusClass) continue;
      const requests = Number(row.requests);
      if (row.statusClass === '2xx-3xx') day.ok += requests;
      else if (row.statusClass === '4xx') day.clientErrors += requests;
      else if (row.statusClass === '429') day.limited += requests;
      else day.serverErrors += requests;
    }
    const recent = await this.usage.recentRequests(teamId, new Date(now - USAGE_DAYS * DAY_MS), RECENT_REQUESTS);
    return {
      daily: [...byKey.values()],
      recent: recent.map((row) => ({
        at: row.at.toISOString(),
        keyName: row.name,
        // Two keys may share a name (a rolled key keeps it): the prefix tells them apart.
        keyPrefix: row.prefix,
        method: row.method,
        path: row.path,
        status: row.status,
        durationMs: row.durationMs,
      })),
    };
  }
}
