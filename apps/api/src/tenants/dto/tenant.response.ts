import { ApiProperty } from '@nestjs/swagger';
import type { LinkedUnitRow } from '../tenant-units.repository.js';
import { UnitSummaryResponse } from '../../units/dto/unit-summary.response.js';
import type { Tenant } from '../tenant.entity.js';

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class LinkedUnitResponse extends UnitSummaryResponse {}

export class TenantUnitLinkResponse {
  /** The link's id; the unit shows the same link with the same id. */
  @ApiProperty({ format: 'uuid' })
  id!: string;
  unit!: LinkedUnitResponse;
}

export class TenantResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  teamId!: string;
  firstName!: string;
  lastName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
  @ApiProperty({ type: String, nullable: true })
  phoneNumber!: string | null;
  @ApiProperty({ type: String, nullable: true })
  notes!: string | null;
  /** Units the tenant is linked to, oldest link first (links made by one request keep the order of `unitIds`). */
  @ApiProperty({ type: [TenantUnitLinkResponse] })
  tenantUnits!: TenantUnitLinkResponse[];
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  /** `links` are this tenant's links, already in oldest-first order. */
  static from(tenant: Tenant, links: LinkedUnitRow[]): TenantResponse {
    return {
      id: tenant.id,
      teamId: tenant.teamId,
      firstName: tenant.firstName,
      lastName: tenant.lastName,
      email: tenant.email,
      phoneNumber: tenant.phoneNumber,
      notes: tenant.notes,
      tenantUnits: links.map((link) => ({ id: link.id, unit: { id: link.unitId, fullAddress: link.fullAddress } })),
      createdAt: tenant.createdAt.toISOString(),
      updatedAt: tenant.updatedAt.toISOString(),
    };
  }
}
