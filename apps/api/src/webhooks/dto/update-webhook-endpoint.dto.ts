import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsOmittable } from '@app/common';
import { CreateWebhookEndpointDto } from './create-webhook-endpoint.dto.js';

/** Partial update; `types: null` sends every type again; `enabled: true` re-enables a disabled endpoint. */
export class UpdateWebhookEndpointDto extends PartialType(CreateWebhookEndpointDto, { skipNullProperties: false }) {
  /** false pauses deliveries (none are queued meanwhile); true resumes and clears `disabledReason`. */
  @ApiPropertyOptional({ example: true })
  @IsBoolean()
  @IsOmittable()
  enabled?: boolean;
}
