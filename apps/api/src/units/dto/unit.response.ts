import { ApiProperty } from '@nestjs/swagger';
import type { LinkedTenantRow } from '../../tenants/tenant-units.repository.js';
import { TenantSummaryResponse } from '../../tenants/dto/tenant-summary.response.js';
import type { Unit } from '../unit.entity.js';

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class LinkedTenantResponse extends TenantSummaryResponse {}

export class UnitTenantLinkResponse {
  /** The link's id; the tenant shows the same link with the same id. */
  @ApiProperty({ format: 'uuid' })
  id!: string;
  tenant!: LinkedTenantResponse;
}

export class UnitResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  teamId!: string;
  /** The non-empty address parts joined by ", " in the order addressLine1, addressLine2, area, city, county, postcode, country. */
  @ApiProperty({ example: '10 Downing Street, Westminster, London, SW1A 2AA, United Kingdom' })
  fullAddress!: string;
  addressLine1!: string;
  @ApiProperty({ type: String, nullable: true })
  addressLine2!: string | null;
  city!: string;
  @ApiProperty({ type: String, nullable: true })
  county!: string | null;
  country!: string;
  postcode!: string;
  @ApiProperty({ type: String, nullable: true })
  area!: string | null;
  /** Tenants linked to the unit, oldest link first. */
  @ApiProperty({ type: [UnitTenantLinkResponse] })
  tenantUnits!: UnitTenantLinkResponse[];
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  /** `links` are this unit's links, already in oldest-first order. */
  static from(unit: Unit, links: LinkedTenantRow[]): UnitResponse {
    return {
      id: unit.id,
      teamId: unit.teamId,
      fullAddress: unit.fullAddress,
      addressLine1: unit.addressLine1,
      addressLine2: unit.addressLine2,
      city: unit.city,
      county: unit.county,
      country: unit.country,
      postcode: unit.postcode,
      area: unit.area,
      tenantUnits: links.map((link) => ({
        id: link.id,
        tenant: { id: link.tenantId, firstName: link.firstName, lastName: link.lastName, email: link.email },
      })),
      createdAt: unit.createdAt.toISOString(),
      updatedAt: unit.updatedAt.toISOString(),
    };
  }
}
