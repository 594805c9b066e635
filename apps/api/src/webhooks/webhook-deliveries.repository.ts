import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FilterBuilder, isoTimestamp, TeamScopedTable, type Paging } from '@app/common';
import type { DeliveryRow } from './webhook.rows.js';

const COLUMNS = `d.id, d.event_id AS "eventId", d.type, d.state, d.attempts, d.last_status AS "lastStatus",
  d.last_error AS "lastError",
  CASE WHEN d.next_attempt_at IS NULL THEN NULL ELSE ${isoTimestamp('d.next_attempt_at')} END AS "nextAttemptAt",
  ${isoTimestamp('d.created_at')} AS "createdAt", ${isoTimestamp('d.updated_at')} AS "updatedAt"`;

/**
 * The deliveries of the team's endpoints as the API shows them (`webhook_deliveries`). The dispatcher claims and
 * records attempts across teams with its own statements (webhook-dispatcher.ts).
 */
@Injectable()
export class WebhookDeliveriesRepository extends TeamScopedTable<DeliveryRow> {
  constructor(@InjectDataSource() db: DataSource) {
    // Attempts record no event, so they do not move the team's change version: lists read every time.
    super(db.manager, 'd', { table: 'webhook_deliveries', columns: COLUMNS }, { rememberByVersion: false });
  }

  list(teamId: string, endpointId: string, query: Paging) {
    const filter = new FilterBuilder();
    filter.and(`d.endpoint_id = ${filter.bind(endpointId)}`);
    return this.pageRows(teamId, query, filter.build());
  }

  /** Queues `body` for this endpoint only; undefined when the team has no such endpoint. */
  async queueFor(
    teamId: string,
    endpointId: string,
    event: { id: string; type: string; body: string },
    now: Date,
  ): Promise<DeliveryRow | undefined> {
    const [row] = await this.statement<DeliveryRow>(
      teamId,
      `INSERT INTO webhook_deliveries AS d (team_id, endpoint_id, event_id, type, body, next_attempt_at, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $6
        WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE team_id = $1 AND id = $2)
       RETURNING ${COLUMNS}`,
      [endpointId, event.id, event.type, event.body, now],
      { why: 'an INSERT … SELECT: $1 in the inserted row, and the endpoint must be the team’s (team_id = $1)' },
    );
    return row;
  }

  /**
   * Makes the delivery due now with a fresh round of attempts and wakes the dispatchers (at commit); undefined
   * when the team's endpoint has no such delivery.
   */
  async retry(teamId: string, endpointId: string, id: string, now: Date): Promise<DeliveryRow | undefined> {
    const [row] = await this.statement<DeliveryRow & { woken: unknown }>(
      teamId,
      `WITH changed AS (
         UPDATE webhook_deliveries d SET state = 'pending', next_attempt_at = $4, locked_until = NULL, attempts = 0
          WHERE d.team_id = $1 AND d.endpoint_id = $2 AND d.id = $3 RETURNING ${COLUMNS})
       SELECT changed.*, pg_notify('webhook_delivery', '') AS woken FROM changed`,
      [endpointId, id, now],
      { why: 'an UPDATE of the team’s delivery (d.team_id = $1) that also wakes the dispatchers' },
    );
    if (!row) return undefined;
    const { woken: _woken, ...delivery } = row;
    return delivery;
  }
}
