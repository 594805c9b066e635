import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../resources.js';
import type { DeliveryRow, WebhookEndpointRow } from '../webhook.rows.js';

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid', readOnly: true })
  id!: string;

  @ApiProperty({ example: 'https://hooks.harbour-lettings.co.uk/portfolio' })
  url!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Contractor dispatch system' })
  description!: string | null;

  /** The event types sent; null: all. */
  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true, nullable: true })
  types!: string[] | null;

  @ApiProperty()
  enabled!: boolean;

  /** Why the service disabled the endpoint (a 410 answer, 5 days of failures); null otherwise. */
  @ApiProperty({ type: String, nullable: true, readOnly: true, example: null })
  disabledReason!: string | null;

  @ApiProperty({ format: 'date-time', readOnly: true })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', readOnly: true })
  updatedAt!: string;

  static from(this: void, row: WebhookEndpointRow): WebhookEndpointResponse {
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      types: row.types,
      enabled: row.enabled,
      disabledReason: row.disabledReason,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}

/** An endpoint with its signing secret: only in the answers to creation and rotation. */
export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  /** `whsec_…`: verify deliveries with it (Standard Webhooks); shown only here. */
  @ApiProperty({ readOnly: true, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', readOnly: true })
  id!: string;

  @ApiProperty({ readOnly: true, example: 'evt_000000000000002a9f86d081884c7d65' })
  eventId!: string;

  @ApiProperty({ readOnly: true, example: 'work_order.created' })
  type!: string;

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], readOnly: true })
  state!: 'pending' | 'succeeded' | 'failed';

  @ApiProperty({ type: 'integer', format: 'int32', readOnly: true })
  attempts!: number;

  /** The HTTP status of the last attempt; null before one, or when it got no answer. */
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, readOnly: true })
  lastStatus!: number | null;

  @ApiProperty({ type: String, nullable: true, readOnly: true, example: null })
  lastError!: string | null;

  /** When the next attempt is due; null once the delivery succeeded or failed. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true, readOnly: true })
  nextAttemptAt!: string | null;

  @ApiProperty({ format: 'date-time', readOnly: true })
  createdAt!: string;

  /** When the delivery last changed (an attempt, a retry). */
  @ApiProperty({ format: 'date-time', readOnly: true })
  updatedAt!: string;

  static from(this: void, row: DeliveryRow): WebhookDeliveryResponse {
    return {
      id: row.id,
      eventId: row.eventId,
      type: row.type,
      state: row.state,
      attempts: row.attempts,
      lastStatus: row.lastStatus,
      lastError: row.lastError,
      nextAttemptAt: row.nextAttemptAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
