import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { unscopedStatement } from '@app/common';

/** One key's requests of one status class on one day (YYYY-MM-DD), added to its stored count. */
export interface UsageCountRow {
  teamId: string;
  apiKeyId: string;
  day: string;
  statusClass: string;
  requests: number;
}

/** One answered request as the log keeps it (`at`: epoch ms). */
export interface RequestLogRow {
  teamId: string;
  apiKeyId: string;
  at: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

/** Why the statements here skip the team-scoped builders (docs/architecture.md, "Team isolation"). */
const USAGE_WHY =
  'the usage batch writes every team’s rows at once, each row carrying its own team; the cleanup spans all teams';

/**
 * Key usage as stored (`api_key_usage_daily`, `api_request_log`, `api_keys.last_used_at`). The recorder writes the
 * batch of every team at once, each row carrying its own team; the cleanup spans all teams: these are unscoped
 * statements (named in docs/architecture.md), and no statement here reads a team's data for anyone.
 */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every statement here is unscoped by team: USAGE_WHY says why (unscoped-statements.ts). */
  private run<R = unknown>(manager: EntityManager, text: string, values: unknown[] = []): Promise<R[]> {
    return unscopedStatement<R>(manager, text, values, { why: USAGE_WHY });
  }

  /** Adds the counts (sorted by the caller, so two instances take their row locks in one order). */
  async addCounts(counts: UsageCountRow[]): Promise<void> {
    await this.run(
      this.db.manager,
      `INSERT INTO api_key_usage_daily (team_id, api_key_id, day, status_class, requests)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::text[], $5::bigint[])
       ON CONFLICT (team_id, api_key_id, day, status_class)
       DO UPDATE SET requests = api_key_usage_daily.requests + excluded.requests`,
      [
        counts.map((c) => c.teamId),
        counts.map((c) => c.apiKeyId),
        counts.map((c) => c.day),
        counts.map((c) => c.statusClass),
        counts.map((c) => c.requests),
      ],
    );
  }

  async logRequests(requests: RequestLogRow[]): Promise<void> {
    await this.run(
      this.db.manager,
      `INSERT INTO api_request_log (team_id, api_key_id, at, method, path, status, duration_ms)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::int[], $7::int[])`,
      [
        requests.map((r) => r.teamId),
        requests.map((r) => r.apiKeyId),
        requests.map((r) => new Date(r.at)),
        requests.map((r) => r.method),
        requests.map((r) => r.path),
        requests.map((r) => r.status),
        requests.map((r) => r.durationMs),
      ],
    );
  }

  /** Moves each key's `last_used_at` forward to `at` (epoch ms), never back. */
  async touchKeys(keys: Array<{ teamId: string; apiKeyId: string; at: number }>): Promise<void> {
    await this.run(
      this.db.manager,
      `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, v.at)
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS v (team_id, id, at)
        WHERE k.team_id = v.team_id AND k.id = v.id`,
      [keys.map((k) => k.teamId), keys.map((k) => k.apiKeyId), keys.map((k) => new Date(k.at))],
    );
  }

  /** Deletes counts before `firstDay`, requests before `before`, and all but each team's last `keep` requests. */
  async deleteOld(firstDay: string, before: Date, keep: number): Promise<void> {
    await this.run(this.db.manager, 'DELETE FROM api_key_usage_daily WHERE day < $1', [firstDay]);
    await this.run(this.db.manager, 'DELETE FROM api_request_log WHERE at < $1', [before]);
    await this.run(
      this.db.manager,
      `DELETE FROM api_request_log l
        USING (SELECT team_id, id, row_number() OVER (PARTITION BY team_id ORDER BY at DESC, id DESC) AS n
                 FROM api_request_log) ranked
        WHERE ranked.n > $1 AND l.team_id = ranked.team_id AND l.id = ranked.id`,
      [keep],
    );
  }
}
