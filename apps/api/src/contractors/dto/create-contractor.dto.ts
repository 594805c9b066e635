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
import { EmptyToNull, IsDateTimeInput, IsOmittable, NormalizeDateTime } from '@app/common';
import { CONTRACTOR_STATUSES, type ContractorStatus } from '../contractor.entity.js';

// class-validator runs a property's rules bottom-up and the pipe reports only the first failure, so each
// property lists its type check last: a missing or mistyped value is reported as such, not as "too long".

export class CertificationDto {
  /** Kind of certification, e.g. "Gas Safe". */
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  type!: string;

  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
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
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  type!: string;

  /** Amount of cover; strictly greater than 0. */
  @ApiProperty({ minimum: 0, exclusiveMinimum: true, example: 2000000 })
  @IsPositive()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  amount!: number;

  /** A date-time, or a date alone (read as midnight UTC). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2027-01-31' })
  @IsOptional()
  @NormalizeDateTime()
  @IsDateTimeInput()
  expiryDate?: string | null;
}

export class CreateContractorDto {
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  companyName!: string;

  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  contactName!: string;

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

  @IsOptional()
  @EmptyToNull()
  @MaxLength(560)
  @IsString()
  fullAddress?: string | null;

  @ApiPropertyOptional({ enum: CONTRACTOR_STATUSES, enumName: 'ContractorStatus', default: 'active' })
  @IsOmittable()
  @IsIn(CONTRACTOR_STATUSES)
  status?: ContractorStatus;

  /** Trades practised, e.g. "plumbing"; replaces the whole list when given. */
  @ApiPropertyOptional({
    type: [String],
    maxItems: 50,
    default: [],
    items: { type: 'string', minLength: 1, maxLength: 100 },
  })
  @IsOmittable()
  @MaxLength(100, { each: true })
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @ArrayMaxSize(50)
  @IsArray()
  trades?: string[];

  /** Postcode prefixes covered (`SW1A` covers `SW1A 1AA`); replaces the whole list when given. */
  @ApiPropertyOptional({
    type: [String],
    maxItems: 500,
    default: [],
    items: { type: 'string', minLength: 1, maxLength: 16 },
  })
  @IsOmittable()
  @MaxLength(16, { each: true })
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @ArrayMaxSize(500)
  @IsArray()
  coveragePostcodes?: string[];

  @ApiPropertyOptional({ type: [CertificationDto], maxItems: 50, default: [] })
  @IsOmittable()
  @ValidateNested({ each: true })
  @Type(() => CertificationDto)
  @ArrayMaxSize(50)
  @IsArray()
  certifications?: CertificationDto[];

  @ApiPropertyOptional({ type: [InsuranceDto], maxItems: 50, default: [] })
  @IsOmittable()
  @ValidateNested({ each: true })
  @Type(() => InsuranceDto)
  @ArrayMaxSize(50)
  @IsArray()
  insurance?: InsuranceDto[];

  @IsOptional()
  @EmptyToNull()
  @MaxLength(10_000)
  @IsString()
  notes?: string | null;
}
