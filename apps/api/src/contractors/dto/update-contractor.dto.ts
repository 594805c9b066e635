import { PartialType } from '@nestjs/swagger';
import { CreateContractorDto } from './create-contractor.dto.js';

/** Partial update: omitted fields keep their value, `null` clears a nullable one, arrays are replaced whole. */
export class UpdateContractorDto extends PartialType(CreateContractorDto, { skipNullProperties: false }) {}
