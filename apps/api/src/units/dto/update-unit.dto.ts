import { PartialType } from '@nestjs/swagger';
import { CreateUnitDto } from './create-unit.dto.js';

/** Partial update: omitted parts keep their value, `null` clears an optional one; `fullAddress` is recomputed. */
export class UpdateUnitDto extends PartialType(CreateUnitDto, { skipNullProperties: false }) {}
