import { ApiProperty } from '@nestjs/swagger';
import { LANDLORD_STATUSES, type Landlord, type LandlordStatus } from '../landlord.entity.js';

export class LandlordResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  teamId!: string;
  name!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
  @ApiProperty({ type: String, nullable: true })
  phoneNumber!: string | null;
  @ApiProperty({ type: String, nullable: true })
  fullAddress!: string | null;
  @ApiProperty({ enum: LANDLORD_STATUSES, enumName: 'LandlordStatus' })
  status!: LandlordStatus;
  @ApiProperty({ type: String, nullable: true })
  notes!: string | null;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static from(landlord: Landlord): LandlordResponse {
    return {
      id: landlord.id,
      teamId: landlord.teamId,
      name: landlord.name,
      email: landlord.email,
      phoneNumber: landlord.phoneNumber,
      fullAddress: landlord.fullAddress,
      status: landlord.status,
      notes: landlord.notes,
      createdAt: landlord.createdAt.toISOString(),
      updatedAt: landlord.updatedAt.toISOString(),
    };
  }
}
