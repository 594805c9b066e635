import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES } from '@app/common';

/** A unit as another record shows it. */
export class UnitSummaryResponse {
  @ApiProperty({ format: 'uuid', example: EXAMPLES.unit.id })
  id!: string;
  @ApiProperty({ example: EXAMPLES.unit.fullAddress })
  fullAddress!: string;
}
