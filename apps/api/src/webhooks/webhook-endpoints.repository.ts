import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isoTimestamp, TeamScopedTable, type Paging } from '@app/common';
import type { WebhookEndpointRow } from './webhook.rows.js';

const COLUMNS = `e.id, e.url, e.description, e.types, e.enabled, e.disabled_reason AS "disabledReason",
  ${isoTimestamp('e.created_at')} AS "createdAt", ${isoTimestamp('e.updated_at')} AS "updatedAt"`;

/** What a PUT may change on an endpoint. */
export interface EndpointChanges {
  url?: string;
  description?: string | null;
  types?: string[] | null;
  enabled?: boolean;
}

/** The team's webhook endpoints (`webhook_endpoints`): their only SQL. */
@Injectable()
export class WebhookEndpointsRepository extends TeamScopedTable<WebhookEndpointRow> {
  constructor(@InjectDataSource() db: DataSource) {
    // Endpoint changes record no event, so they do not move the team's change version: lists read every time.
    super(db.manager, 'e', { table: 'webhook_endpoints', columns: COLUMNS }, { rememberByVersion: false });
  }

  list(teamId: string, query: Paging) {
    return this.pageRows(teamId, query);
  }

  async count(teamId: string, manager?: EntityManager): Promise<number> {
    const [{ n }] = await this.select<{ n: number }>(
      teamId,
      { from: 'webhook_endpoints e', columns: 'count(*)::int AS n' },
      [],
      manager,
    );
    return n;
  }

  async insert(
    teamId: string,
    values: { id: string; url: string; description: string | null; types: string[] | null; secret: string },
    now: Date,
    manager?: EntityManager,
  ): Promise<WebhookEndpointRow> {
    return this.insertRow<WebhookEndpointRow>(
      teamId,
      { ...values, created_at: now, updated_at: now },
      COLUMNS,
      manager,
    );
  }

  /** Applies `changes` (re-enabling clears why it was disabled); undefined when the team has no such endpoint. */
  async update(
    teamId: string,
    id: string,
    changes: EndpointChanges,
    now: Date,
  ): Promise<WebhookEndpointRow | undefined> {
    const sets: string[] = ['updated_at = $3'];
    const values: unknown[] = [id, now];
    const set = (column: string, value: unknown): void => {
      values.push(value);
      sets.push(`${column} = $${values.length + 1}`);
    };
    if (changes.url !== undefined) set('url', changes.url);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.types !== undefined) set('types', changes.types);
    if (changes.enabled !== undefined) {
      set('enabled', changes.enabled);
      if (changes.enabled) sets.push('disabled_reason = NULL', 'failing_since = NULL');
    }
    const [row] = await this.updateWhere<WebhookEndpointRow>(
      teamId,
      { table: 'webhook_endpoints e', set: sets.join(', '), where: 'e.id = $2', returning: COLUMNS },
      values,
    );
    return row;
  }

  /** A new secret; the old one keeps signing beside it until `previousUntil`. */
  async rotateSecret(
    teamId: string,
    id: string,
    secret: string,
    previousUntil: Date,
    now: Date,
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.updateWhere<WebhookEndpointRow>(
      teamId,
      {
        table: 'webhook_endpoints e',
        set: 'previous_secret = secret, previous_secret_until = $3, secret = $4, updated_at = $5',
        where: 'e.id = $2',
        returning: COLUMNS,
      },
      [id, previousUntil, secret, now],
    );
    return row;
  }
}
