import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../resources.js';

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

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
      disabledReason: row.disabled_reason,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }
}

/** An endpoint with its signing secret: only in the answers to creation and rotation. */
export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  /** `whsec_…`: verify deliveries with it (Standard Webhooks); shown only here. */
  @ApiProperty({ readOnly: true, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
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

  static from(this: void, row: DeliveryRow): WebhookDeliveryResponse {
    return {
      id: row.id,
      eventId: row.event_id,
      type: row.type,
      state: row.state,
      attempts: row.attempts,
      lastStatus: row.last_status,
      lastError: row.last_error,
      nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    };
  }
}
