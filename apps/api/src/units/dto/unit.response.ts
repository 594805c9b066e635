import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES, ExternalRefProperty } from '@app/common';
import { TenantSummaryResponse } from '../../tenancies/index.js';
import type { UnitRow } from '../unit.row.js';
import { TENANCY_EXAMPLE_ID } from '../../tenancies/tenancy.example.js';
import { UNIT_EXAMPLE } from '../unit.example.js';

const unit = UNIT_EXAMPLE;

// Each use keeps its own named subclass: the OpenAPI document publishes these names as schemas.
export class LinkedTenantResponse extends TenantSummaryResponse {}

export class UnitTenantLinkResponse {
  /** The link's id; the tenant shows the same link with the same id. */
  @ApiProperty({ format: 'uuid', example: TENANCY_EXAMPLE_ID })
  id!: string;
  tenant!: LinkedTenantResponse;
}

export class UnitResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: unit.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ExternalRefProperty(unit.externalRef)
  externalRef!: string | null;
  /** The non-empty address parts joined by ", " in the order addressLine1, addressLine2, area, city, county, postcode, country. */
  @ApiProperty({ example: unit.fullAddress, readOnly: true })
  fullAddress!: string;
  @ApiProperty({ example: unit.addressLine1 })
  addressLine1!: string;
  @ApiProperty({ example: unit.addressLine2 })
  addressLine2!: string | null;
  @ApiProperty({ example: unit.city })
  city!: string;
  @ApiProperty({ example: unit.county })
  county!: string | null;
  @ApiProperty({ example: unit.country })
  country!: string;
  @ApiProperty({ example: unit.postcode })
  postcode!: string;
  @ApiProperty({ example: unit.area })
  area!: string | null;
  /** Tenants linked to the unit, oldest link first. */
  tenantUnits!: UnitTenantLinkResponse[];
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a unit row (links already oldest first) to the API's shape. */
  static from(this: void, row: UnitRow): UnitResponse {
    return {
      id: row.id,
      teamId: row.teamId,
      externalRef: row.externalRef,
      fullAddress: row.fullAddress,
      addressLine1: row.addressLine1,
      addressLine2: row.addressLine2,
      city: row.city,
      county: row.county,
      country: row.country,
      postcode: row.postcode,
      area: row.area,
      tenantUnits: row.links.map((link) => ({
        id: link.id,
        tenant: { id: link.tenantId, firstName: link.firstName, lastName: link.lastName, email: link.email },
      })),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
