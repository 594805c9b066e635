import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AppConfig,
  Clock,
  ConflictError,
  DomainError,
  pageOf,
  RecordNotFoundError,
  Transactions,
  type Page,
  type Paging,
} from '@app/common';
import type { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto.js';
import type { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto.js';
import {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  type WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.response.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { newSecret } from './signing.js';
import { checkUrlForm, resolveSafely, UnsafeUrlError } from './url-safety.js';

/** At most this many endpoints per team; the next one is refused (400). */
export const MAX_ENDPOINTS = 20;
/** After a rotation, the old secret also signs for this long. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

class InvalidEndpointError extends DomainError {
  constructor(message: string, field?: 'url') {
    super('invalid_reference', message, field);
  }
}

/** Webhook endpoints and their deliveries: the rules (URL safety, the limit, secrets); SQL in the repositories. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveryRows: WebhookDeliveriesRepository,
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
      if (error instanceof UnsafeUrlError) throw new InvalidEndpointError(error.message, 'url');
      throw error;
    }
  }

  async create(teamId: string, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretResponse> {
    await this.checkUrl(dto.url);
    return this.transactions.run(async (manager) => {
      // One creation at a time per team, so the 20-endpoint limit cannot be overrun by concurrent requests.
      await this.endpoints.lockTeam(teamId, 'webhook_endpoints', manager);
      if ((await this.endpoints.count(teamId, manager)) >= MAX_ENDPOINTS) {
        throw new InvalidEndpointError(`A team can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
      }
      const secret = newSecret();
      const row = await this.endpoints.insert(
        teamId,
        { id: randomUUID(), url: dto.url, description: dto.description ?? null, types: dto.types ?? null, secret },
        new Date(this.clock.now()),
        manager,
      );
      return { ...WebhookEndpointResponse.from(row), secret };
    });
  }

  async list(teamId: string, query: Paging): Promise<Page<WebhookEndpointResponse>> {
    const [rows, total] = await this.endpoints.list(teamId, query);
    return pageOf(rows.map(WebhookEndpointResponse.from), total, query);
  }

  async get(teamId: string, id: string): Promise<WebhookEndpointResponse> {
    const row = await this.endpoints.findOne(teamId, id);
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookEndpointResponse.from(row);
  }

  async update(teamId: string, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const row = await this.endpoints.update(teamId, id, dto, new Date(this.clock.now()));
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookEndpointResponse.from(row);
  }

  async remove(teamId: string, id: string): Promise<void> {
    if (!(await this.endpoints.delete(teamId, id))) throw new RecordNotFoundError('Webhook endpoint');
  }

  /** A new secret; the old one keeps signing (beside it) for 24 hours. */
  async rotateSecret(teamId: string, id: string): Promise<WebhookEndpointWithSecretResponse> {
    const secret = newSecret();
    const now = this.clock.now();
    const row = await this.endpoints.rotateSecret(
      teamId,
      id,
      secret,
      new Date(now + PREVIOUS_SECRET_MS),
      new Date(now),
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
    const row = await this.deliveryRows.queueFor(teamId, id, { id: eventId, type: 'ping', body }, now);
    if (!row) throw new RecordNotFoundError('Webhook endpoint');
    return WebhookDeliveryResponse.from(row);
  }

  async deliveries(teamId: string, id: string, query: Paging): Promise<Page<WebhookDeliveryResponse>> {
    await this.get(teamId, id);
    const [rows, total] = await this.deliveryRows.list(teamId, id, query);
    return pageOf(rows.map(WebhookDeliveryResponse.from), total, query);
  }

  /** Sends a delivery again now (a failed one gets a fresh round of attempts). */
  async retry(teamId: string, id: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    const row = await this.deliveryRows.retry(teamId, id, deliveryId, new Date(this.clock.now()));
    if (!row) throw new RecordNotFoundError('Webhook delivery');
    return WebhookDeliveryResponse.from(row);
  }
}
