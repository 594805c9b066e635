import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { EmptyToNull, IsOmittable } from '@app/common';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';

// class-validator runs a property's rules bottom-up and the pipe reports only the first failure, so each
// property lists its type check last: a missing or mistyped value is reported as such, not as "too long".

export class CreateLandlordDto {
  /** The landlord's name, a person or a company. */
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  name!: string;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(254)
  @IsEmail()
  email?: string | null;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(160)
  @IsString()
  phoneNumber?: string | null;

  /** Correspondence address, free text. */
  @IsOptional()
  @EmptyToNull()
  @MaxLength(560)
  @IsString()
  fullAddress?: string | null;

  @ApiPropertyOptional({ enum: LANDLORD_STATUSES, enumName: 'LandlordStatus', default: 'active' })
  @IsOmittable()
  @IsIn(LANDLORD_STATUSES)
  status?: LandlordStatus;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(10_000)
  @IsString()
  notes?: string | null;
}
