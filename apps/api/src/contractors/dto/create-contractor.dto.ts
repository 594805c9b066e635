import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsPositive } from 'class-validator';
import { ItemList, OneOf, OptionalDateTime, OptionalEmail, OptionalText, RequiredText, TextList } from '@app/common';
import { CONTRACTOR_STATUSES, type ContractorStatus } from '../contractor.entity.js';

export class CertificationDto {
  /** Kind of certification, e.g. "Gas Safe". */
  @RequiredText(260)
  type!: string;

  @RequiredText(260)
  registrationNumber!: string;

  /** A date-time, or a date alone (read as midnight UTC). */
  @OptionalDateTime({ example: '2027-01-31T00:00:00.000Z' })
  expiryDate?: string | null;
}

export class InsuranceDto {
  /** Kind of cover, e.g. "Public liability". */
  @RequiredText(260)
  type!: string;

  /** Amount of cover; strictly greater than 0. */
  @ApiProperty({ minimum: 0, exclusiveMinimum: true, example: 2000000 })
  @IsPositive()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  amount!: number;

  /** A date-time, or a date alone (read as midnight UTC). */
  @OptionalDateTime({ example: '2027-01-31T00:00:00.000Z' })
  expiryDate?: string | null;
}

export class CreateContractorDto {
  @RequiredText(260)
  companyName!: string;

  @RequiredText(260)
  contactName!: string;

  @OptionalEmail()
  email?: string | null;

  @OptionalText(160)
  phoneNumber?: string | null;

  @OptionalText(560)
  fullAddress?: string | null;

  @OneOf(CONTRACTOR_STATUSES, 'ContractorStatus', { fallback: 'active' })
  status?: ContractorStatus;

  /** Trades practised, e.g. "plumbing"; replaces the whole list when given. */
  @TextList(50, 100)
  trades?: string[];

  /** Postcode prefixes covered (`SW1A` covers `SW1A 1AA`); replaces the whole list when given. */
  @TextList(500, 16)
  coveragePostcodes?: string[];

  @ItemList(CertificationDto, 50)
  certifications?: CertificationDto[];

  @ItemList(InsuranceDto, 50)
  insurance?: InsuranceDto[];

  @OptionalText(10_000)
  notes?: string | null;
}
