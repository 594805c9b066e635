import { ApiProperty } from '@nestjs/swagger';

/** A tenant as another record shows it. */
export class TenantSummaryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  firstName!: string;
  lastName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
}
