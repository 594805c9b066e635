import { ApiProperty } from '@nestjs/swagger';
import {
  CONTRACTOR_STATUSES,
  toCertification,
  toInsurance,
  type Contractor,
  type ContractorStatus,
} from '../contractor.entity.js';

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
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  teamId!: string;
  companyName!: string;
  contactName!: string;
  @ApiProperty({ type: String, format: 'email', nullable: true })
  email!: string | null;
  @ApiProperty({ type: String, nullable: true })
  phoneNumber!: string | null;
  @ApiProperty({ type: String, nullable: true })
  fullAddress!: string | null;
  @ApiProperty({ enum: CONTRACTOR_STATUSES, enumName: 'ContractorStatus' })
  status!: ContractorStatus;
  trades!: string[];
  coveragePostcodes!: string[];
  certifications!: CertificationResponse[];
  insurance!: InsuranceResponse[];
  @ApiProperty({ type: String, nullable: true })
  notes!: string | null;
  /** No rating source exists yet, so this is always null. */
  @ApiProperty({ type: 'integer', nullable: true, example: null })
  rating!: number | null;
  /** Completed work orders assigned to this contractor. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  completedJobs!: number;
  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static from(contractor: Contractor): ContractorResponse {
    return {
      id: contractor.id,
      teamId: contractor.teamId,
      companyName: contractor.companyName,
      contactName: contractor.contactName,
      email: contractor.email,
      phoneNumber: contractor.phoneNumber,
      fullAddress: contractor.fullAddress,
      status: contractor.status,
      trades: contractor.trades,
      coveragePostcodes: contractor.coveragePostcodes,
      certifications: contractor.certifications.map(toCertification),
      insurance: contractor.insurance.map(toInsurance),
      notes: contractor.notes,
      rating: null,
      completedJobs: Number(contractor.completedJobs ?? 0),
      createdAt: contractor.createdAt.toISOString(),
      updatedAt: contractor.updatedAt.toISOString(),
    };
  }
}
