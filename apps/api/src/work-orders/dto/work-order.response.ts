import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES, ExternalRefProperty } from '@app/common';
import { TenantSummaryResponse, UnitSummaryResponse } from '../../tenancies/index.js';
import {
  WORK_ORDER_PRIORITIES,
  WORK_ORDER_STATUSES,
  type WorkOrderPriority,
  type WorkOrderStatus,
} from '../work-order.entity.js';
import type { WorkOrderRow } from '../work-order.row.js';
import { CONTRACTOR_EXAMPLE } from '../../contractors/contractor.example.js';
import { WORK_ORDER_EXAMPLE } from '../work-order.example.js';

const workOrder = WORK_ORDER_EXAMPLE;

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class WorkOrderTenantResponse extends TenantSummaryResponse {}

export class WorkOrderUnitResponse extends UnitSummaryResponse {}

export class WorkOrderContractorResponse {
  @ApiProperty({ format: 'uuid', example: CONTRACTOR_EXAMPLE.id })
  id!: string;
  @ApiProperty({ example: CONTRACTOR_EXAMPLE.companyName })
  companyName!: string;
}

export class WorkOrderResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: workOrder.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ExternalRefProperty(workOrder.externalRef)
  externalRef!: string | null;
  /**
   * `WO-<n>`, numbered from 1 per team in order of creation; a refused create uses no number, and a deleted work
   * order's number is never given to another.
   */
  @ApiProperty({ example: workOrder.code, readOnly: true })
  code!: string;
  @ApiProperty({ example: workOrder.title })
  title!: string;
  @ApiProperty({ example: workOrder.description })
  description!: string | null;
  @ApiProperty({ enum: WORK_ORDER_STATUSES, enumName: 'WorkOrderStatus' })
  status!: WorkOrderStatus;
  /** 0 = Emergency, 1 = High, 2 = Medium, 3 = Low. */
  @ApiProperty({ enum: WORK_ORDER_PRIORITIES, enumName: 'WorkOrderPriority', example: '1' })
  priority!: WorkOrderPriority;
  @ApiProperty({ example: workOrder.availability })
  availability!: string | null;
  /** True when the work order was completed with no contractor assigned. */
  @ApiProperty({ readOnly: true, example: false })
  selfResolved!: boolean;
  /** When the work order entered `completed`; null while it is not completed. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true, readOnly: true, example: null })
  resolvedAt!: string | null;
  /** How the work order arrived; `api` for every work order created through this API. */
  @ApiProperty({ example: 'api', readOnly: true })
  intakeChannel!: string;
  @ApiProperty({ type: WorkOrderTenantResponse, nullable: true })
  tenant!: WorkOrderTenantResponse | null;
  unit!: WorkOrderUnitResponse;
  @ApiProperty({ type: WorkOrderContractorResponse, nullable: true })
  contractor!: WorkOrderContractorResponse | null;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a work order row to the API's shape. */
  static from(this: void, row: WorkOrderRow): WorkOrderResponse {
    return {
      id: row.id,
      teamId: row.teamId,
      externalRef: row.externalRef,
      code: row.code,
      title: row.title,
      description: row.description,
      status: row.status,
      priority: row.priority,
      availability: row.availability,
      selfResolved: row.selfResolved,
      resolvedAt: row.resolvedAt,
      intakeChannel: row.intakeChannel,
      tenant:
        row.tenantId === null
          ? null
          : {
              id: row.tenantId,
              firstName: row.tenantFirstName as string,
              lastName: row.tenantLastName as string,
              email: row.tenantEmail,
            },
      unit: { id: row.unitId, fullAddress: row.unitFullAddress },
      contractor:
        row.contractorId === null ? null : { id: row.contractorId, companyName: row.contractorCompanyName as string },
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
