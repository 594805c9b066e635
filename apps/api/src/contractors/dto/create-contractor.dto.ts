import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { EmptyToNull, IsDateTimeInput, NormalizeDateTime } from '@app/common';
import { CONTRACTOR_STATUSES, type ContractorStatus } from '../contractor.entity.js';

export class CertificationDto {
  /** Kind of certification, e.g. "Gas Safe". */
  @IsString()
  @IsNotEmpty()
  @MaxLength(260)
  type!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(260)
  registrationNumber!: string;

  /** A date-time, or a date alone (read as midnight UTC). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2027-01-31' })
  @IsOptional()
  @NormalizeDateTime()
  @IsDateTimeInput()
  expiryDate?: string | null;
}

export class InsuranceDto {
  /** Kind of cover, e.g. "Public liability". */
  @IsString()
  @IsNotEmpty()
  @MaxLength(260)
  type!: string;

  /** Amount of cover; strictly greater than 0. */
  @ApiProperty({ minimum: 0, exclusiveMinimum: true, example: 2000000 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  amount!: number;

  /** A date-time, or a date alone (read as midnight UTC). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2027-01-31' })
  @IsOptional()
  @NormalizeDateTime()
  @IsDateTimeInput()
  expiryDate?: string | null;
}

export class CreateContractorDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(260)
  companyName!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(260)
  contactName!: string;

  @IsOptional()
  @EmptyToNull()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @IsOptional()
  @EmptyToNull()
  @IsString()
  @MaxLength(160)
  phoneNumber?: string | null;

  @IsOptional()
  @EmptyToNull()
  @IsString()
  @MaxLength(560)
  fullAddress?: string | null;

  @ApiPropertyOptional({ enum: CONTRACTOR_STATUSES, enumName: 'ContractorStatus', default: 'active' })
  @IsOptional()
  @IsIn(CONTRACTOR_STATUSES)
  status?: ContractorStatus;

  /** Trades practised, e.g. "plumbing"; replaces the whole list when given. */
  @ApiPropertyOptional({ type: [String], maxItems: 50, default: [], items: { type: 'string', minLength: 1, maxLength: 100 } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(100, { each: true })
  trades?: string[];

  /** Postcode prefixes covered (`SW1A` covers `SW1A 1AA`); replaces the whole list when given. */
  @ApiPropertyOptional({ type: [String], maxItems: 500, default: [], items: { type: 'string', minLength: 1, maxLength: 16 } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(16, { each: true })
  coveragePostcodes?: string[];

  @ApiPropertyOptional({ type: [CertificationDto], maxItems: 50, default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => CertificationDto)
  certifications?: CertificationDto[];

  @ApiPropertyOptional({ type: [InsuranceDto], maxItems: 50, default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => InsuranceDto)
  insurance?: InsuranceDto[];

  @IsOptional()
  @EmptyToNull()
  @IsString()
  @MaxLength(10_000)
  notes?: string | null;
}
