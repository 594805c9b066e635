import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { EmptyToNull, IsOmittable } from '@app/common';
import { WORK_ORDER_PRIORITIES, type WorkOrderPriority } from '../work-order.entity.js';

/** Integers 0–3 are accepted for convenience; the priority is always stored and returned as text. */
const IntegerToText = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isInteger(value) ? String(value) : value,
  );

// class-validator runs a property's rules bottom-up and the pipe reports only the first failure, so each
// property lists its type check last: a missing or mistyped value is reported as such, not as "too long".

export class CreateWorkOrderDto {
  /** Short summary of the problem, e.g. "Leaking kitchen tap". */
  @ApiProperty({ minLength: 1 })
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  title!: string;

  /** What is wrong, in as much detail as is useful. */
  @IsOptional()
  @EmptyToNull()
  @MaxLength(10_000)
  @IsString()
  description?: string | null;

  /** The team's unit (property) where the work is needed. */
  @IsUUID('loose')
  unitId!: string;

  /** The team's tenant who reported the problem, if any. */
  @IsOptional()
  @EmptyToNull()
  @IsUUID('loose')
  tenantId?: string | null;

  /** The team's contractor assigned to the job, if any. */
  @IsOptional()
  @EmptyToNull()
  @IsUUID('loose')
  contractorId?: string | null;

  /** When the tenant is available for a visit, as free text. */
  @IsOptional()
  @EmptyToNull()
  @MaxLength(260)
  @IsString()
  availability?: string | null;

  /** 0 = Emergency, 1 = High, 2 = Medium, 3 = Low. The integers 0–3 are accepted too; returned as a string. */
  @ApiPropertyOptional({ enum: WORK_ORDER_PRIORITIES, enumName: 'WorkOrderPriority', default: '2' })
  // Unlike the nullable fields, null is not "no priority": it is refused.
  @IsOmittable()
  @IntegerToText()
  @IsIn(WORK_ORDER_PRIORITIES, { message: 'priority must be one of "0", "1", "2", "3" (or the integers 0 to 3)' })
  priority?: WorkOrderPriority;
}
