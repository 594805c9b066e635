import { ApiProperty } from '@nestjs/swagger';
import { TenantSummaryResponse } from '../../tenants/dto/tenant-summary.response.js';
import { UnitSummaryResponse } from '../../units/dto/unit-summary.response.js';
import {
  WORK_ORDER_PRIORITIES,
  WORK_ORDER_STATUSES,
  type WorkOrder,
  type WorkOrderPriority,
  type WorkOrderStatus,
} from '../work-order.entity.js';

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class WorkOrderTenantResponse extends TenantSummaryResponse {}

export class WorkOrderUnitResponse extends UnitSummaryResponse {}

export class WorkOrderContractorResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  companyName!: string;
}

export class WorkOrderResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  teamId!: string;
  /** `WO-<n>`, numbered from 1 per team without gaps. */
  @ApiProperty({ example: 'WO-1' })
  code!: string;
  title!: string;
  @ApiProperty({ type: String, nullable: true })
  description!: string | null;
  @ApiProperty({ enum: WORK_ORDER_STATUSES, enumName: 'WorkOrderStatus' })
  status!: WorkOrderStatus;
  /** 0 = Emergency, 1 = High, 2 = Medium, 3 = Low. */
  @ApiProperty({ enum: WORK_ORDER_PRIORITIES, enumName: 'WorkOrderPriority' })
  priority!: WorkOrderPriority;
  @ApiProperty({ type: String, nullable: true })
  availability!: string | null;
  /** True when the work order was completed with no contractor assigned. */
  selfResolved!: boolean;
  /** When the work order entered `completed`; null while it is not completed. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  resolvedAt!: string | null;
  /** How the work order arrived; `api` for every work order created through this API. */
  @ApiProperty({ example: 'api' })
  intakeChannel!: string;
  @ApiProperty({ type: WorkOrderTenantResponse, nullable: true })
  tenant!: WorkOrderTenantResponse | null;
  unit!: WorkOrderUnitResponse;
  @ApiProperty({ type: WorkOrderContractorResponse, nullable: true })
  contractor!: WorkOrderContractorResponse | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  /** Expects a work order loaded with its joins (see WorkOrdersRepository). */
  static from(workOrder: WorkOrder): WorkOrderResponse {
    const { unit, tenant, contractor } = workOrder;
    if (!unit) throw new Error(`work order ${workOrder.id} was loaded without its unit`);
    return {
      id: workOrder.id,
      teamId: workOrder.teamId,
      code: workOrder.code,
      title: workOrder.title,
      description: workOrder.description,
      status: workOrder.status,
      priority: workOrder.priority,
      availability: workOrder.availability,
      selfResolved: workOrder.selfResolved,
      resolvedAt: workOrder.resolvedAt?.toISOString() ?? null,
      intakeChannel: workOrder.intakeChannel,
      tenant: tenant
        ? { id: tenant.id, firstName: tenant.firstName, lastName: tenant.lastName, email: tenant.email }
        : null,
      unit: { id: unit.id, fullAddress: unit.fullAddress },
      contractor: contractor ? { id: contractor.id, companyName: contractor.companyName } : null,
      createdAt: workOrder.createdAt.toISOString(),
      updatedAt: workOrder.updatedAt.toISOString(),
    };
  }
}
