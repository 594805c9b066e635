import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES } from '@app/common';

const tenant = EXAMPLES.tenant;

/** A tenant as another record shows it. */
export class TenantSummaryResponse {
  @ApiProperty({ format: 'uuid', example: tenant.id })
  id!: string;
  @ApiProperty({ example: tenant.firstName })
  firstName!: string;
  @ApiProperty({ example: tenant.lastName })
  lastName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true, example: tenant.email })
  email!: string | null;
}
