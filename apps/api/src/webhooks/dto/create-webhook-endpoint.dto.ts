import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { OptionalText, RequiredText, type EventType } from '@app/common';
import { EVENT_TYPES } from '../../resources.js';

export class CreateWebhookEndpointDto {
  /**
   * Where deliveries are POSTed: `https://` (http only when the server sets WEBHOOKS_ALLOW_HTTP), a host that does
   * not resolve to a loopback, private, link-local or metadata address. Redirects are not followed. Put your
   * receiver’s URL here: the example's host does not exist.
   */
  @RequiredText(2048, { format: 'uri', example: 'https://hooks.harbour-lettings.co.uk/portfolio' })
  url!: string;

  /** The event types to send; omitted (or null): all of them. */
  @ApiPropertyOptional({
    enum: EVENT_TYPES,
    enumName: 'EventType',
    isArray: true,
    nullable: true,
    minItems: 1,
    maxItems: EVENT_TYPES.length,
    example: ['work_order.created', 'work_order.updated'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true })
  types?: EventType[] | null;

  /** What the endpoint is for. */
  @OptionalText(500, { example: 'Contractor dispatch system' })
  description?: string | null;
}
