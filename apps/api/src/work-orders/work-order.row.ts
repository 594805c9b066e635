import type { WorkOrderPriority, WorkOrderStatus } from './work-order.entity.js';

/** A work order as the repository reads it, with its unit, tenant and contractor (timestamps in the API's text form). */
export interface WorkOrderRow {
  id: string;
  teamId: string;
  externalRef: string | null;
  code: string;
  title: string;
  description: string | null;
  status: WorkOrderStatus;
  priority: WorkOrderPriority;
  availability: string | null;
  selfResolved: boolean;
  resolvedAt: string | null;
  intakeChannel: string;
  createdAt: string;
  updatedAt: string;
  unitId: string;
  unitFullAddress: string;
  tenantId: string | null;
  tenantFirstName: string | null;
  tenantLastName: string | null;
  tenantEmail: string | null;
  contractorId: string | null;
  contractorCompanyName: string | null;
}

/** What a create or update writes, in domain names (the repository maps them to columns). */
export interface WorkOrderWrite {
  externalRef?: string | null;
  title?: string;
  description?: string | null;
  intakeChannel?: string;
  status?: WorkOrderStatus;
  priority?: WorkOrderPriority;
  availability?: string | null;
  selfResolved?: boolean;
  resolvedAt?: string | null;
  unitId?: string;
  tenantId?: string | null;
  contractorId?: string | null;
}

/** What an update's decision was based on; the update applies only if the record still matches. */
export interface WorkOrderState {
  status: WorkOrderStatus;
  contractorId: string | null;
}
