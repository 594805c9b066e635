import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsPositive } from 'class-validator';
import {
  ItemList,
  OneOf,
  OptionalDateTime,
  OptionalEmail,
  OptionalText,
  RequiredText,
  TextList,
  ExternalRef,
} from '@app/common';
import { CONTRACTOR_STATUSES, type ContractorStatus } from '../contractor.entity.js';
import { CONTRACTOR_EXAMPLE } from '../contractor.example.js';

const contractor = CONTRACTOR_EXAMPLE;

export class CertificationDto {
  /** Kind of certification, e.g. "Gas Safe". */
  @RequiredText(260, { example: contractor.certification.type })
  type!: string;

  @RequiredText(260, { example: contractor.certification.registrationNumber })
  registrationNumber!: string;

  /** A date-time, or a date alone (read as midnight UTC). */
  @OptionalDateTime({ example: contractor.certification.expiryDate })
  expiryDate?: string | null;
}

export class InsuranceDto {
  /** Kind of cover, e.g. "Public liability". */
  @RequiredText(260, { example: contractor.insurance.type })
  type!: string;

  /** Amount of cover; strictly greater than 0. */
  @ApiProperty({ minimum: 0, exclusiveMinimum: true, example: contractor.insurance.amount })
  @IsPositive()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a finite number' })
  amount!: number;

  /** A date-time, or a date alone (read as midnight UTC). */
  @OptionalDateTime({ example: contractor.insurance.expiryDate })
  expiryDate?: string | null;
}

export class CreateContractorDto {
  @RequiredText(260, { example: contractor.companyName })
  companyName!: string;

  @RequiredText(260, { example: contractor.contactName })
  contactName!: string;

  @OptionalEmail({ example: contractor.email })
  email?: string | null;

  @OptionalText(160, { example: contractor.phoneNumber })
  phoneNumber?: string | null;

  @OptionalText(560, { example: contractor.fullAddress })
  fullAddress?: string | null;

  @OneOf(CONTRACTOR_STATUSES, 'ContractorStatus', { fallback: 'active', example: 'active' })
  status?: ContractorStatus;

  /** Trades practised, e.g. "plumbing"; replaces the whole list when given. */
  @TextList(50, 100, { example: contractor.trades })
  trades?: string[];

  /** Postcode prefixes covered (`SW1A` covers `SW1A 1AA`); replaces the whole list when given. */
  @TextList(500, 16, { example: contractor.coveragePostcodes })
  coveragePostcodes?: string[];

  @ItemList(CertificationDto, 50, { example: [contractor.certification] })
  certifications?: CertificationDto[];

  @ItemList(InsuranceDto, 50, { example: [contractor.insurance] })
  insurance?: InsuranceDto[];

  @OptionalText(10_000, { example: contractor.notes })
  notes?: string | null;

  @ExternalRef()
  externalRef?: string | null;
}
