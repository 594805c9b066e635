import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLES, ExternalRefProperty } from '@app/common';
import { CONTRACTOR_STATUSES, toCertification, toInsurance, type ContractorStatus } from '../contractor.entity.js';
import type { ContractorRow } from '../contractor.row.js';
import { CONTRACTOR_EXAMPLE } from '../contractor.example.js';

const contractor = CONTRACTOR_EXAMPLE;

export class CertificationResponse {
  @ApiProperty({ example: contractor.certification.type })
  type!: string;
  @ApiProperty({ example: contractor.certification.registrationNumber })
  registrationNumber!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: contractor.certification.expiryDate })
  expiryDate!: string | null;
}

export class InsuranceResponse {
  @ApiProperty({ example: contractor.insurance.type })
  type!: string;
  @ApiProperty({ example: contractor.insurance.amount })
  amount!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: contractor.insurance.expiryDate })
  expiryDate!: string | null;
}

export class ContractorResponse {
  @ApiProperty({ format: 'uuid', readOnly: true, example: contractor.id })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true, example: EXAMPLES.teamId })
  teamId!: string;
  @ExternalRefProperty(contractor.externalRef)
  externalRef!: string | null;
  @ApiProperty({ example: contractor.companyName })
  companyName!: string;
  @ApiProperty({ example: contractor.contactName })
  contactName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true, example: contractor.email })
  email!: string | null;
  @ApiProperty({ example: contractor.phoneNumber })
  phoneNumber!: string | null;
  @ApiProperty({ example: contractor.fullAddress })
  fullAddress!: string | null;
  @ApiProperty({ enum: CONTRACTOR_STATUSES, enumName: 'ContractorStatus' })
  status!: ContractorStatus;
  @ApiProperty({ example: contractor.trades })
  trades!: string[];
  @ApiProperty({ example: contractor.coveragePostcodes })
  coveragePostcodes!: string[];
  certifications!: CertificationResponse[];
  insurance!: InsuranceResponse[];
  @ApiProperty({ example: contractor.notes })
  notes!: string | null;
  /** No rating source exists yet, so this is always null. */
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, example: null, readOnly: true })
  rating!: number | null;
  /** Completed work orders assigned to this contractor. */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, readOnly: true, example: contractor.completedJobs })
  completedJobs!: number;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.createdAt })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true, example: EXAMPLES.updatedAt })
  updatedAt!: string;

  /** The one mapping from a contractor row to the API's shape. */
  static from(this: void, row: ContractorRow): ContractorResponse {
    return {
      id: row.id,
      teamId: row.teamId,
      externalRef: row.externalRef,
      companyName: row.companyName,
      contactName: row.contactName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      fullAddress: row.fullAddress,
      status: row.status,
      trades: row.trades,
      coveragePostcodes: row.coveragePostcodes,
      certifications: row.certifications.map(toCertification),
      insurance: row.insurance.map(toInsurance),
      notes: row.notes,
      rating: null,
      completedJobs: row.completedJobs,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
