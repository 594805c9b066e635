import type { Certification, ContractorStatus, Insurance } from './contractor.entity.js';

/** A contractor as the repository reads it (timestamps already in the API's text form). */
export interface ContractorRow {
  id: string;
  teamId: string;
  externalRef: string | null;
  companyName: string;
  contactName: string;
  email: string | null;
  phoneNumber: string | null;
  fullAddress: string | null;
  status: ContractorStatus;
  trades: string[];
  coveragePostcodes: string[];
  certifications: Certification[];
  insurance: Insurance[];
  notes: string | null;
  /** Completed work orders assigned to the contractor. */
  completedJobs: number;
  createdAt: string;
  updatedAt: string;
}
