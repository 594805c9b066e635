import { PartialType } from '@nestjs/swagger';
import { CreateLandlordDto } from './create-landlord.dto.js';

/** Partial update: omitted fields keep their value, `null` clears a nullable one; `status` may change here too. */
export class UpdateLandlordDto extends PartialType(CreateLandlordDto, { skipNullProperties: false }) {}
