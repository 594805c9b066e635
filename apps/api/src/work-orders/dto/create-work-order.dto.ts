import { Transform } from 'class-transformer';
import { OneOf, OptionalId, OptionalText, RequiredId, RequiredText, ExternalRef } from '@app/common';
import { WORK_ORDER_PRIORITIES, type WorkOrderPriority } from '../work-order.entity.js';
import { UNIT_EXAMPLE } from '../../units/unit.example.js';
import { WORK_ORDER_EXAMPLE } from '../work-order.example.js';

/** Integers 0–3 are accepted for convenience; the priority is always stored and returned as text. */
const IntegerToText = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isInteger(value) ? String(value) : value,
  );

const workOrder = WORK_ORDER_EXAMPLE;

export class CreateWorkOrderDto {
  /** Short summary of the problem. */
  @RequiredText(260, { example: workOrder.title })
  title!: string;

  /** What is wrong, in as much detail as is useful. */
  @OptionalText(10_000, { example: workOrder.description })
  description?: string | null;

  /**
   * The id of the team's unit (property) where the work is needed: create a unit with `POST /v1/units` (or find
   * one with `GET /v1/units`) and paste its `id` here. The example id is the demo team's unit (so it works as it
   * stands with the demo key), no unit of another team.
   */
  @RequiredId({ example: UNIT_EXAMPLE.id })
  unitId!: string;

  /**
   * The id of the team's tenant who reported the problem (create one with `POST /v1/tenants`, or find one with
   * `GET /v1/tenants`); `null` for none.
   */
  @OptionalId({ example: null })
  tenantId?: string | null;

  /**
   * The id of the team's contractor assigned to the job (create one with `POST /v1/contractors`, or find one with
   * `GET /v1/contractors`); `null` for none.
   */
  @OptionalId({ example: null })
  contractorId?: string | null;

  /** When the tenant is available for a visit, as free text. */
  @OptionalText(260, { example: workOrder.availability })
  availability?: string | null;

  /** 0 = Emergency, 1 = High, 2 = Medium, 3 = Low. The integers 0–3 are accepted too; returned as a string. */
  // Unlike the nullable fields, null is not "no priority": it is refused.
  @OneOf(WORK_ORDER_PRIORITIES, 'WorkOrderPriority', {
    fallback: '2',
    example: '1',
    message: 'priority must be one of "0", "1", "2", "3" (or the integers 0 to 3)',
  })
  @IntegerToText()
  priority?: WorkOrderPriority;

  @ExternalRef()
  externalRef?: string | null;
}
