import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AppConfig,
  Clock,
  ConflictError,
  DomainError,
  pageOf,
  RecordNotFoundError,
  teamScopedQuery,
  Transactions,
  type Page,
} from '@app/common';
import type { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto.js';
import type { WebhookPageQuery } from './dto/list-deliveries.query.js';
import type { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto.js';
import {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  type DeliveryRow,
  type WebhookEndpointRow,
  type WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.response.js';
import { newSecret } from './signing.js';
import { checkUrlForm, resolveSafely, UnsafeUrlError } from './url-safety.js';

/** At most this many endpoints per team; the next one is refused (400). */
export const MAX_ENDPOINTS = 20;
/** After a rotation, the old secret also signs for this long. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

const ENDPOINT_COLUMNS = 'id, url, description, types, enabled, disabled_reason, created_at, updated_at';
const DELIVERY_COLUMNS = 'id, event_id, type, state, attempts, last_status, last_error, next_attempt_at';

class InvalidUrlError extends DomainError {
  constructor(message: string) {
    super('invalid_reference', message);
  }
}

/** Webhook endpoints and their deliveries, every statement scoped by team. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transactions: Transactions,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private get rules() {
    return { allowHttp: this.config.WEBHOOKS_ALLOW_HTTP, allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE };
  }

  /**
   * The URL's form, and every address its host resolves to now (400 when unsafe). A name that does not resolve
   * yet is accepted: every delivery resolves and checks it again, and a DNS outage must not block configuration.
   */
  private async checkUrl(url: string): Promise<void> {
    try {
      await resolveSafely(checkUrlForm(url, this.rules).hostname, this.rules, 'accept');
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw new InvalidUrlError(error.message);
      throw error;
    }
  }

  async create(teamId: string, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponse> {
    await this.checkUrl(dto.url);
    return this.transactions.run(async (manager) => {
      // One creation at a time per team, so the 20-endpoint limit cannot be overrun by concurrent requests.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || $1))`, [teamId]);
      const [{ n }] = await teamScopedQuery<{ n: number }>(
        manager,
        teamId,
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE team_id = $1',
      );
      if (n >= MAX_ENDPOINTS) {
        throw new InvalidUrlError(`A team can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      }
      const secret = newSecret();
      const now = new Date(this.clock.now());
      const [row] = await manager.query<WebhookEndpointRow[]>(
        `INSERT INTO webhook_endpoints (team_id, id, url, description, types, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${ENDPOINT_COLUMNS}`,
        [teamId, randomUUID(), dto.url, dto.description ?? null, dto.types ?? null, secret, now],
      );
      return { ...WebhookEndpointResponse.from(row), secret };
    });
  }

  async list(teamId: string, query: WebhookPageQuery): Promise<Page<WebhookEndpointResponse>> {
    const rows = await teamScopedQuery<WebhookEndpointRow & { total: number }>(
      this.db.manager,
      teamId,
      `SELECT ${ENDPOINT_COLUMNS}, count(*) OVER ()::int AS total FROM webhook_endpoints
        WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [query.pageSize, (query.page - 1) * query.pageSize],
    );
    const total = rows[0]?.total ?? (await this.count(teamId));
    return pageOf(rows.map(WebhookEndpointResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<WebhookEndpointResponse> {
    const [row] = await teamScopedQuery<WebhookEndpointRow>(
      this.db.manager,
      teamId,
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE team_id = $1 AND id = $2`,
      [id],
    );
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookEndpointResponse.from(row);
  }

  async update(teamId: string, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const sets: string[] = ['updated_at = $3'];
    const values: unknown[] = [id, new Date(this.clock.now())];
    const set = (column: string, value: unknown): void => {
      values.push(value);
      sets.push(`${column} = $${values.length + 1}`);
    };
    if (dto.url !== undefined) set('url', dto.url);
    if (dto.description !== undefined) set('description', dto.description);
    if (dto.types !== undefined) set('types', dto.types);
    if (dto.enabled !== undefined) {
      set('enabled', dto.enabled);
      if (dto.enabled) sets.push('disabled_reason = NULL', 'failing_since = NULL');
    }
    const [row] = await teamScopedQuery<WebhookEndpointRow>(
      this.db.manager,
      teamId,
      // Through a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count] instead of the rows.
      `WITH changed AS (UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE team_id = $1 AND id = $2
       RETURNING ${ENDPOINT_COLUMNS}) SELECT * FROM changed`,
      values,
    );
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookEndpointResponse.from(row);
  }

  async remove(teamId: string, id: string): Promise<void> {
    const gone = await teamScopedQuery<{ id: string }>(
      this.db.manager,
      teamId,
      'WITH gone AS (DELETE FROM webhook_endpoints WHERE team_id = $1 AND id = $2 RETURNING id) SELECT id FROM gone',
      [id],
    );
    if (gone.length === 0) throw new RecordNotFoundError('Webhook endpoint');
  }

  /** A new secret; the old one keeps signing (beside it) for 24 hours. */
  async rotateSecret(teamId: string, id: string): Promise<WebhookEndpointWithSecretResponse> {
    const secret = newSecret();
    const now = this.clock.now();
    const [row] = await teamScopedQuery<WebhookEndpointRow>(
      this.db.manager,
      teamId,
      `WITH changed AS (
         UPDATE webhook_endpoints
            SET previous_secret = secret, previous_secret_until = $3, secret = $4, updated_at = $5
          WHERE team_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS})
       SELECT * FROM changed`,
      [id, new Date(now + PREVIOUS_SECRET_MS), secret, new Date(now)],
    );
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return { ...WebhookEndpointResponse.from(row), secret };
  }

  /** Queues a `ping` event for this endpoint only (never in the feed); 409 when the endpoint is disabled. */
  async sendTest(teamId: string, id: string): Promise<WebhookDeliveryResponse> {
    const endpoint = await this.get(teamId, id);
    if (!endpoint.enabled) throw new ConflictError('The webhook endpoint is disabled; enable it to send a test event');
    const now = new Date(this.clock.now());
    const eventId = `evt_${randomBytes(16).toString('hex')}`;
    const body = JSON.stringify({ id: eventId, type: 'ping', createdAt: now.toISOString(), data: { object: { id } } });
    const [row] = await teamScopedQuery<DeliveryRow>(
      this.db.manager,
      teamId,
      `INSERT INTO webhook_deliveries (team_id, endpoint_id, event_id, type, body, next_attempt_at, created_at)
       SELECT $1, $2, $3, 'ping', $4, $5, $5 WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE team_id = $1 AND id = $2)
       RETURNING ${DELIVERY_COLUMNS}`,
      [id, eventId, body, now],
    );
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookDeliveryResponse.from(row);
  }

  async deliveries(teamId: string, id: string, query: WebhookPageQuery): Promise<Page<WebhookDeliveryResponse>> {
    await this.get(teamId, id);
    const rows = await teamScopedQuery<DeliveryRow & { total: number }>(
      this.db.manager,
      teamId,
      `SELECT ${DELIVERY_COLUMNS}, count(*) OVER ()::int AS total FROM webhook_deliveries
        WHERE team_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [id, query.pageSize, (query.page - 1) * query.pageSize],
    );
    const total =
      rows[0]?.total ??
      (
        await teamScopedQuery<{ n: number }>(
          this.db.manager,
          teamId,
          'SELECT count(*)::int AS n FROM webhook_deliveries WHERE team_id = $1 AND endpoint_id = $2',
          [id],
        )
      )[0].n;
    return pageOf(rows.map(WebhookDeliveryResponse.from), total, query);
  }

  /** Sends a delivery again now (a failed one gets a fresh round of attempts). */
  async retry(teamId: string, id: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    const [row] = await teamScopedQuery<DeliveryRow>(
      this.db.manager,
      teamId,
      `WITH changed AS (
         UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $4, locked_until = NULL, attempts = 0
          WHERE team_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING ${DELIVERY_COLUMNS})
       SELECT * FROM changed`,
      [id, deliveryId, new Date(this.clock.now())],
    );
    if (!row) throw new RecordNotFoundError('Webhook delivery');
    await this.db.query(`SELECT pg_notify('webhook_delivery', '')`);
    return WebhookDeliveryResponse.from(row);
  }

  private async count(teamId: string): Promise<number> {
    const [{ n }] = await teamScopedQuery<{ n: number }>(
      this.db.manager,
      teamId,
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE team_id = $1',
    );
    return n;
  }
}
