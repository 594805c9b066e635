import { ApiProperty } from '@nestjs/swagger';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';
import type { LandlordRow } from '../landlord.row.js';

export class LandlordResponse {
  @ApiProperty({ format: 'uuid', readOnly: true })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true })
  teamId!: string;
  name!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
  phoneNumber!: string | null;
  fullAddress!: string | null;
  @ApiProperty({ enum: LANDLORD_STATUSES, enumName: 'LandlordStatus' })
  status!: LandlordStatus;
  notes!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true })
  updatedAt!: string;

  /** The one mapping from a landlord row to the API's shape. */
  static from(this: void, row: LandlordRow): LandlordResponse {
    return {
      id: row.id,
      teamId: row.teamId,
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
