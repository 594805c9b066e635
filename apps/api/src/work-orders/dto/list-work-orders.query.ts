import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { CommaList, PageQuery } from '@app/common';
import {
  WORK_ORDER_PRIORITIES,
  WORK_ORDER_STATUSES,
  type WorkOrderPriority,
  type WorkOrderStatus,
} from '../work-order.entity.js';

/** `search` covers the title and the code (`wo-12` finds WO-12, WO-120, …). */
export class ListWorkOrdersQuery extends PageQuery {
  /** One status or a comma-separated list (`reported,in_progress`). */
  @ApiPropertyOptional({
    enum: WORK_ORDER_STATUSES,
    enumName: 'WorkOrderStatus',
    isArray: true,
    maxItems: WORK_ORDER_STATUSES.length,
  })
  @IsOptional()
  @CommaList()
  @IsIn(WORK_ORDER_STATUSES, { each: true })
  status?: WorkOrderStatus[];

  /** One priority or a comma-separated list (`0,1`). */
  @ApiPropertyOptional({
    enum: WORK_ORDER_PRIORITIES,
    enumName: 'WorkOrderPriority',
    isArray: true,
    maxItems: WORK_ORDER_PRIORITIES.length,
  })
  @IsOptional()
  @CommaList()
  @IsIn(WORK_ORDER_PRIORITIES, { each: true })
  priority?: WorkOrderPriority[];

  /** Work orders at this unit. */
  @IsOptional()
  @IsUUID('loose')
  unitId?: string;

  /** Work orders reported by this tenant. */
  @IsOptional()
  @IsUUID('loose')
  tenantId?: string;

  /** Work orders assigned to this contractor. */
  @IsOptional()
  @IsUUID('loose')
  contractorId?: string;
}
