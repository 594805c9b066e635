import { ApiProperty } from '@nestjs/swagger';

/** A unit as another record shows it. */
export class UnitSummaryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  fullAddress!: string;
}
