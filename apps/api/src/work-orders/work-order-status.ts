import { ConflictError } from '@app/common';
import type { WorkOrder, WorkOrderStatus } from './work-order.entity.js';

/** The moves a PUT may make; setting the current status again is always allowed and changes nothing. */
export const STATUS_MOVES: Readonly<Record<WorkOrderStatus, readonly WorkOrderStatus[]>> = {
  reported: ['in_progress', 'completed', 'cancelled'],
  in_progress: ['reported', 'completed', 'cancelled'],
  completed: ['in_progress'],
  cancelled: ['reported'],
};

type StatusFields = Pick<WorkOrder, 'status' | 'resolvedAt' | 'selfResolved'>;

/**
 * The status fields a move sets: entering `completed` stamps `resolvedAt` and records whether the work was
 * done without a contractor (as assigned once the update is applied); leaving it undoes both. `anyMove`: an
 * import's row, which sets any status as given (CONTRACT "Imports and exports"), with no transition rules.
 */
export function statusChange(
  from: WorkOrderStatus,
  to: WorkOrderStatus | undefined,
  contractorIdAfter: string | null,
  now: Date,
  anyMove = false,
): Partial<StatusFields> {
  if (to === undefined || to === from) return {};
  if (!anyMove && !STATUS_MOVES[from].includes(to)) {
    throw new ConflictError(`Cannot change status from ${from} to ${to}`);
  }
  if (to === 'completed') return { status: to, resolvedAt: now, selfResolved: contractorIdAfter === null };
  if (from === 'completed') return { status: to, resolvedAt: null, selfResolved: false };
  return { status: to };
}
