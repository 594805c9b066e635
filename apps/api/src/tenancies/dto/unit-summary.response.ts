import { ApiProperty } from '@nestjs/swagger';
import { UNIT_EXAMPLE } from '../../units/unit.example.js';

/** A unit as another record shows it. */
export class UnitSummaryResponse {
  @ApiProperty({ format: 'uuid', example: UNIT_EXAMPLE.id })
  id!: string;
  @ApiProperty({ example: UNIT_EXAMPLE.fullAddress })
  fullAddress!: string;
}
