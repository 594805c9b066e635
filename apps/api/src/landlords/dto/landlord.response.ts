import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES, ExternalRefProperty } from '@app/common';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';
import type { LandlordRow } from '../landlord.row.js';
import { LANDLORD_EXAMPLE } from '../landlord.example.js';

const landlord = LANDLORD_EXAMPLE;

export class LandlordResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: landlord.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ExternalRefProperty(landlord.externalRef)
  externalRef!: string | null;
  @ApiProperty({ example: landlord.name })
  name!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true, example: landlord.email })
  email!: string | null;
  @ApiProperty({ example: landlord.phoneNumber })
  phoneNumber!: string | null;
  @ApiProperty({ example: landlord.fullAddress })
  fullAddress!: string | null;
  @ApiProperty({ enum: LANDLORD_STATUSES, enumName: 'LandlordStatus' })
  status!: LandlordStatus;
  @ApiProperty({ example: landlord.notes })
  notes!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a landlord row to the API's shape. */
  static from(this: void, row: LandlordRow): LandlordResponse {
    return {
      id: row.id,
      teamId: row.teamId,
      externalRef: row.externalRef,
      name: row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      fullAddress: row.fullAddress,
      status: row.status,
      notes: row.notes,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
