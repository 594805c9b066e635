import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { USAGE_DAYS, RECENT_REQUESTS, UsageRecorder, type StatusClass } from '../api-keys/index.js';
import type { DailyUsage, RecentRequestView } from './views/usage-page.js';

const DAY_MS = 86_400_000;

/** What the usage page shows, read for one team (every query is scoped by it). */
@Injectable()
export class UsageReportService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly recorder: UsageRecorder,
  ) {}

  async report(teamId: string): Promise<{ daily: DailyUsage[]; recent: RecentRequestView[] }> {
    // This instance's own latest requests first, so a person sees what they just did.
    await this.recorder.flush();
    const now = this.clock.now();
    const days = Array.from({ length: USAGE_DAYS }, (_, i) => new Date(now - i * DAY_MS).toISOString().slice(0, 10));
    const counts: Array<{
      id: string;
      name: string | null;
      prefix: string | null;
      day: string | null;
      status_class: StatusClass | null;
      requests: string | null;
    }> = await this.db.query(
      `SELECT k.id, k.name, k.prefix, to_char(u.day, 'YYYY-MM-DD') AS day, u.status_class, u.requests
         FROM api_keys k
         LEFT JOIN api_key_usage_daily u
           ON u.team_id = k.team_id AND u.api_key_id = k.id AND u.day >= $2::date
        WHERE k.team_id = $1
        ORDER BY k.created_at, k.id`,
      [teamId, days[days.length - 1]],
    );
    const byKey = new Map<string, DailyUsage>();
    for (const row of counts) {
      let key = byKey.get(row.id);
      if (!key) {
        key = {
          apiKeyId: row.id,
          name: row.name,
          prefix: row.prefix,
          days: days.map((day) => ({ day, ok: 0, clientErrors: 0, limited: 0, serverErrors: 0 })),
        };
        byKey.set(row.id, key);
      }
      const day = key.days.find((entry) => entry.day === row.day);
      if (!day || !row.status_class) continue;
      const requests = Number(row.requests);
      if (row.status_class === '2xx-3xx') day.ok += requests;
      else if (row.status_class === '4xx') day.clientErrors += requests;
      else if (row.status_class === '429') day.limited += requests;
      else day.serverErrors += requests;
    }
    const recent: Array<{
      at: Date;
      name: string | null;
      prefix: string | null;
      method: string;
      path: string;
      status: number;
      duration_ms: number;
    }> = await this.db.query(
      `SELECT l.at, k.name, k.prefix, l.method, l.path, l.status, l.duration_ms
         FROM api_request_log l
         JOIN api_keys k ON k.team_id = l.team_id AND k.id = l.api_key_id
        WHERE l.team_id = $1 AND l.at >= $2
        ORDER BY l.at DESC, l.id DESC
        LIMIT $3`,
      [teamId, new Date(now - USAGE_DAYS * DAY_MS), RECENT_REQUESTS],
    );
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
        durationMs: row.duration_ms,
      })),
    };
  }
}
