import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { unscopedStatement } from '@app/common';

/** A leased delivery with what its attempt needs of its endpoint. */
export interface ClaimedDelivery {
  team_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  enabled: boolean;
}

/** What one attempt ended as, for the delivery's row. */
export interface AttemptResult {
  state: 'succeeded' | 'pending' | 'failed';
  status: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

/** Why the statements here skip the team-scoped builders (docs/architecture.md, "Team isolation"). */
const QUEUE_WHY = 'the delivery queue is served across teams in turns; each write names the delivery’s own team and id';

/**
 * The dispatcher's statements over the delivery queue (`webhook_deliveries` with its endpoints): claims take due
 * deliveries of every team in turns, so they are not scoped by one team (the unscoped statements named in
 * docs/architecture.md); each write after an attempt names the delivery's own team and id.
 */
@Injectable()
export class WebhookQueueRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every statement here is unscoped by team: QUEUE_WHY says why (unscoped-statements.ts). */
  private run<R = unknown>(manager: EntityManager, text: string, values: unknown[] = []): Promise<R[]> {
    return unscopedStatement<R>(manager, text, values, { why: QUEUE_WHY });
  }

  /** Makes claims take turns across instances until the transaction ends. */
  async lockClaims(manager: EntityManager): Promise<void> {
    await this.run(manager, `SELECT pg_advisory_xact_lock(hashtext('webhook_deliveries:claim'))`);
  }

  /**
   * Leases up to `limit` deliveries due at `now` until `leaseUntil`, teams in turns: a delivery's turn is its rank
   * among its team's due deliveries plus the team's attempts in flight, and no team goes past `teamSlots`.
   */
  claim(manager: EntityManager, now: Date, limit: number, teamSlots: number, leaseUntil: Date) {
    return this.run<ClaimedDelivery>(
      manager,
      `WITH busy AS (
         SELECT team_id, count(*)::int AS n FROM webhook_deliveries
          WHERE state = 'pending' AND locked_until > $1
          GROUP BY team_id),
       due AS (
         SELECT d.team_id, d.id, d.next_attempt_at,
                COALESCE(b.n, 0) + row_number() OVER (PARTITION BY d.team_id ORDER BY d.next_attempt_at, d.id) AS turn
           FROM webhook_deliveries d LEFT JOIN busy b ON b.team_id = d.team_id
          WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)),
       chosen AS (
         SELECT team_id, id FROM due WHERE turn <= $3 ORDER BY turn, next_attempt_at, id LIMIT $2),
       locked AS (
         SELECT team_id, id FROM webhook_deliveries
          WHERE (team_id, id) IN (SELECT team_id, id FROM chosen)
            AND state = 'pending' AND (locked_until IS NULL OR locked_until <= $1)
          FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d SET locked_until = $4, attempts = d.attempts + 1
           FROM locked, webhook_endpoints w
          WHERE d.team_id = locked.team_id AND d.id = locked.id AND w.team_id = d.team_id AND w.id = d.endpoint_id
         RETURNING d.team_id, d.id, d.endpoint_id, d.event_id, d.body, d.attempts,
                   w.url, w.secret, w.previous_secret, w.previous_secret_until, w.enabled)
       SELECT * FROM claimed`,
      [now, limit, teamSlots, leaseUntil],
    );
  }

  /** Writes an attempt's result; false when the lease ran out and someone else took the delivery meanwhile. */
  async recordAttempt(manager: EntityManager, delivery: ClaimedDelivery, result: AttemptResult): Promise<boolean> {
    // Through a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const updated = await this.run<unknown>(
      manager,
      `WITH recorded AS (
         UPDATE webhook_deliveries
            SET state = $4, last_status = $5, last_error = $6, next_attempt_at = $7, locked_until = NULL
          WHERE team_id = $1 AND id = $2 AND attempts = $3
          RETURNING id)
       SELECT id FROM recorded`,
      [
        delivery.team_id,
        delivery.id,
        delivery.attempts,
        result.state,
        result.status,
        result.error,
        result.nextAttemptAt,
      ],
    );
    return updated.length > 0;
  }

  /** The endpoint answered 2xx: it is failing no more. */
  async endpointSucceeded(manager: EntityManager, teamId: string, endpointId: string): Promise<void> {
    await this.run(
      manager,
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE team_id = $1 AND id = $2 AND failing_since IS NOT NULL',
      [teamId, endpointId],
    );
  }

  async disableEndpoint(
    manager: EntityManager,
    teamId: string,
    endpointId: string,
    reason: string,
    now: Date,
  ): Promise<void> {
    await this.run(
      manager,
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = $4
        WHERE team_id = $1 AND id = $2`,
      [teamId, endpointId, reason, now],
    );
  }

  /** The endpoint failed at `now`: failing since then if it was not, and disabled once failing since `disableBy`. */
  async endpointFailed(
    manager: EntityManager,
    teamId: string,
    endpointId: string,
    now: Date,
    disableBy: Date,
  ): Promise<void> {
    await this.run(
      manager,
      `UPDATE webhook_endpoints
          SET failing_since = COALESCE(failing_since, $3),
              enabled = CASE WHEN COALESCE(failing_since, $3) <= $4 THEN false ELSE enabled END,
              disabled_reason = CASE WHEN COALESCE(failing_since, $3) <= $4
                                     THEN 'Every delivery failed for 5 days' ELSE disabled_reason END
        WHERE team_id = $1 AND id = $2`,
      [teamId, endpointId, now, disableBy],
    );
  }

  /** Deliveries waiting to be sent, every team's (the metrics' queue depth; the partial index on pending rows). */
  async pendingCount(): Promise<number> {
    const [row] = await this.run<{ n: number }>(
      this.db.manager,
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending'`,
    );
    return row.n;
  }
}
