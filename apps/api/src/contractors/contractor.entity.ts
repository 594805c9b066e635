import { Column, Entity } from 'typeorm';
import { ExternallyReferencedEntity } from '@app/common';

export const CONTRACTOR_STATUSES = ['active', 'inactive', 'on_holiday'] as const;
export type ContractorStatus = (typeof CONTRACTOR_STATUSES)[number];

export interface Certification {
  type: string;
  registrationNumber: string;
  expiryDate: string | null;
}

export interface Insurance {
  type: string;
  amount: number;
  expiryDate: string | null;
}

type WithOptionalExpiry<T extends { expiryDate: string | null }> = Omit<T, 'expiryDate'> &
  Partial<Pick<T, 'expiryDate'>>;

// Items are rebuilt key by key on the way in (no stray keys reach the jsonb column) and on the way out (jsonb
// reorders keys; the documented order is kept).

export const toCertification = (item: WithOptionalExpiry<Certification>): Certification => ({
  type: item.type,
  registrationNumber: item.registrationNumber,
  expiryDate: item.expiryDate ?? null,
});

export const toInsurance = (item: WithOptionalExpiry<Insurance>): Insurance => ({
  type: item.type,
  amount: item.amount,
  expiryDate: item.expiryDate ?? null,
});

@Entity('contractors')
export class Contractor extends ExternallyReferencedEntity {
  @Column({ name: 'company_name', type: 'text' })
  companyName!: string;

  @Column({ name: 'contact_name', type: 'text' })
  contactName!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'full_address', type: 'text', nullable: true })
  fullAddress!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: ContractorStatus;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  trades!: string[];

  @Column({ name: 'coverage_postcodes', type: 'text', array: true, default: () => "'{}'" })
  coveragePostcodes!: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  certifications!: Certification[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  insurance!: Insurance[];

  @Column({ type: 'text', nullable: true })
  notes!: string | null;
}
