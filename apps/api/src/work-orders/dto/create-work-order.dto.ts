import { Transform } from 'class-transformer';
import { OneOf, OptionalId, OptionalText, RequiredId, RequiredText } from '@app/common';
import { WORK_ORDER_PRIORITIES, type WorkOrderPriority } from '../work-order.entity.js';

/** Integers 0–3 are accepted for convenience; the priority is always stored and returned as text. */
const IntegerToText = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isInteger(value) ? String(value) : value,
  );

export class CreateWorkOrderDto {
  /** Short summary of the problem, e.g. "Leaking kitchen tap". */
  @RequiredText(260)
  title!: string;

  /** What is wrong, in as much detail as is useful. */
  @OptionalText(10_000)
  description?: string | null;

  /** The team's unit (property) where the work is needed. */
  @RequiredId()
  unitId!: string;

  /** The team's tenant who reported the problem, if any. */
  @OptionalId()
  tenantId?: string | null;

  /** The team's contractor assigned to the job, if any. */
  @OptionalId()
  contractorId?: string | null;

  /** When the tenant is available for a visit, as free text. */
  @OptionalText(260)
  availability?: string | null;

  /** 0 = Emergency, 1 = High, 2 = Medium, 3 = Low. The integers 0–3 are accepted too; returned as a string. */
  // Unlike the nullable fields, null is not "no priority": it is refused.
  @OneOf(WORK_ORDER_PRIORITIES, 'WorkOrderPriority', {
    fallback: '2',
    message: 'priority must be one of "0", "1", "2", "3" (or the integers 0 to 3)',
  })
  @IntegerToText()
  priority?: WorkOrderPriority;
}
