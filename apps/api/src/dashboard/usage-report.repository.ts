import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { teamSelect } from '@app/common';
import type { StatusClass } from '../api-keys/index.js';

/** One key with one day's count of one status class (day and class null: the key had no requests since). */
export interface DailyCountRow {
  apiKeyId: string;
  name: string | null;
  prefix: string | null;
  day: string | null;
  statusClass: StatusClass | null;
  requests: string | null;
}

/** One logged request with the name and prefix of its key. */
export interface RecentRequestRow {
  at: Date;
  name: string | null;
  prefix: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

/** What the usage page reads of a team (`api_keys`, `api_key_usage_daily`, `api_request_log`). */
@Injectable()
export class UsageReportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every key of the team, in the order they were made, with its daily counts since `firstDay` (YYYY-MM-DD). */
  dailyCounts(teamId: string, firstDay: string): Promise<DailyCountRow[]> {
    return teamSelect<DailyCountRow>(
      this.db.manager,
      teamId,
      {
        from: 'api_keys k',
        columns: `k.id AS "apiKeyId", k.name, k.prefix, to_char(u.day, 'YYYY-MM-DD') AS day,
                  u.status_class AS "statusClass", u.requests`,
        joins: `LEFT JOIN api_key_usage_daily u
                  ON u.team_id = k.team_id AND u.api_key_id = k.id AND u.day >= $2::date`,
        orderBy: 'k.created_at, k.id',
      },
      [firstDay],
    );
  }

  /** The team's latest `limit` requests since `since`, newest first. */
  recentRequests(teamId: string, since: Date, limit: number): Promise<RecentRequestRow[]> {
    return teamSelect<RecentRequestRow>(
      this.db.manager,
      teamId,
      {
        from: 'api_request_log l',
        columns: 'l.at, k.name, k.prefix, l.method, l.path, l.status, l.duration_ms AS "durationMs"',
        joins: 'JOIN api_keys k ON k.team_id = l.team_id AND k.id = l.api_key_id',
        where: 'l.at >= $2',
        orderBy: 'l.at DESC, l.id DESC',
        limit: '$3',
      },
      [since, limit],
    );
  }
}
