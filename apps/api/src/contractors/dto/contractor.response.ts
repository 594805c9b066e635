import { ApiProperty } from '@nestjs/swagger';
import { CONTRACTOR_STATUSES, toCertification, toInsurance, type ContractorStatus } from '../contractor.entity.js';
import type { ContractorRow } from '../contractor.row.js';

export class CertificationResponse {
  type!: string;
  registrationNumber!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiryDate!: string | null;
}

export class InsuranceResponse {
  type!: string;
  amount!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiryDate!: string | null;
}

export class ContractorResponse {
  @ApiProperty({ format: 'uuid', readOnly: true })
  id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true })
  teamId!: string;
  companyName!: string;
  contactName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
  phoneNumber!: string | null;
  fullAddress!: string | null;
  @ApiProperty({ enum: CONTRACTOR_STATUSES, enumName: 'ContractorStatus' })
  status!: ContractorStatus;
  trades!: string[];
  coveragePostcodes!: string[];
  certifications!: CertificationResponse[];
  insurance!: InsuranceResponse[];
  notes!: string | null;
  /** No rating source exists yet, so this is always null. */
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, example: null, readOnly: true })
  rating!: number | null;
  /** Completed work orders assigned to this contractor. */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, readOnly: true })
  completedJobs!: number;
  @ApiProperty({ format: 'date-time', readOnly: true })
  createdAt!: string;
  @ApiProperty({ format: 'date-time', readOnly: true })
  updatedAt!: string;

  /** The one mapping from a contractor row to the API's shape. */
  static from(this: void, row: ContractorRow): ContractorResponse {
    return {
      id: row.id,
      teamId: row.teamId,
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
