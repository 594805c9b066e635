import { ApiProperty } from '@nestjs/swagger';
import { TenantSummaryResponse } from '../../tenants/dto/tenant-summary.response.js';
import { UnitSummaryResponse } from '../../units/dto/unit-summary.response.js';
import {
  WORK_ORDER_PRIORITIES,
  WORK_ORDER_STATUSES,
  type WorkOrderPriority,
  type WorkOrderStatus,
} from '../work-order.entity.js';

/** One row of the joined select in WorkOrdersRepository. */
export interface WorkOrderRow {
  id: string;
  team_id: string;
  code: string;
  title: string;
  description: string | null;
  status: WorkOrderStatus;
  priority: WorkOrderPriority;
  availability: string | null;
  self_resolved: boolean;
  resolved_at: string | null;
  intake_channel: string;
  created_at: string;
  updated_at: string;
  unit_id: string;
  unit_full_address: string;
  tenant_id: string | null;
  tenant_first_name: string | null;
  tenant_last_name: string | null;
  tenant_email: string | null;
  contractor_id: string | null;
  contractor_company_name: string | null;
}

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

  /** From a row of WorkOrdersRepository's joined select (timestamps already formatted by PostgreSQL). */
  static from(row: WorkOrderRow): WorkOrderResponse {
    return {
      id: row.id,
      teamId: row.team_id,
      code: row.code,
      title: row.title,
      description: row.description,
      status: row.status,
      priority: row.priority,
      availability: row.availability,
      selfResolved: row.self_resolved,
      resolvedAt: row.resolved_at,
      intakeChannel: row.intake_channel,
      tenant:
        row.tenant_id === null
          ? null
          : {
              id: row.tenant_id,
              firstName: row.tenant_first_name as string,
              lastName: row.tenant_last_name as string,
              email: row.tenant_email,
            },
      unit: { id: row.unit_id, fullAddress: row.unit_full_address },
      contractor:
        row.contractor_id === null
          ? null
          : { id: row.contractor_id, companyName: row.contractor_company_name as string },
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}
