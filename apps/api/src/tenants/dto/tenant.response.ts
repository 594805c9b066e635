import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES, ExternalRefProperty } from '@app/common';
import { UnitSummaryResponse } from '../../tenancies/index.js';
import type { TenantRow } from '../tenant.row.js';
import { TENANCY_EXAMPLE_ID } from '../../tenancies/tenancy.example.js';
import { TENANT_EXAMPLE } from '../tenant.example.js';

const tenant = TENANT_EXAMPLE;

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class LinkedUnitResponse extends UnitSummaryResponse {}

export class TenantUnitLinkResponse {
  /** The link's id; the unit shows the same link with the same id. */
  @ApiProperty({ format: 'uuid', example: TENANCY_EXAMPLE_ID })
  id!: string;
  unit!: LinkedUnitResponse;
}

export class TenantResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: tenant.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ExternalRefProperty(tenant.externalRef)
  externalRef!: string | null;
  @ApiProperty({ example: tenant.firstName })
  firstName!: string;
  @ApiProperty({ example: tenant.lastName })
  lastName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true, example: tenant.email })
  email!: string | null;
  @ApiProperty({ example: tenant.phoneNumber })
  phoneNumber!: string | null;
  @ApiProperty({ example: tenant.notes })
  notes!: string | null;
  /** Units the tenant is linked to, oldest link first (links made by one request keep the order of `unitIds`). */
  tenantUnits!: TenantUnitLinkResponse[];
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a tenant row (links already oldest first) to the API's shape. */
  static from(this: void, row: TenantRow): TenantResponse {
    return {
      id: row.id,
      teamId: row.teamId,
      externalRef: row.externalRef,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      notes: row.notes,
      tenantUnits: row.links.map((link) => ({ id: link.id, unit: { id: link.unitId, fullAddress: link.fullAddress } })),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
