import { ApiProperty } from '@nestjs/swagger';
import { TENANT_EXAMPLE } from '../../tenants/tenant.example.js';

const tenant = TENANT_EXAMPLE;

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
