import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsOmittable } from '@app/common';
import { WORK_ORDER_STATUSES, type WorkOrderStatus } from '../work-order.entity.js';
import { CreateWorkOrderDto } from './create-work-order.dto.js';

/** Partial update: omitted fields keep their value, `null` clears a nullable one. */
export class UpdateWorkOrderDto extends PartialType(CreateWorkOrderDto, { skipNullProperties: false }) {
  /**
   * Moves: reported → in_progress, completed, cancelled; in_progress → reported, completed, cancelled;
   * completed → in_progress; cancelled → reported. Any other move is a 409; the current status is always allowed.
   */
  @ApiPropertyOptional({ enum: WORK_ORDER_STATUSES, enumName: 'WorkOrderStatus', example: 'in_progress' })
  @IsOmittable()
  @IsIn(WORK_ORDER_STATUSES)
  status?: WorkOrderStatus;
}
