import { Column, Entity } from 'typeorm';
import { ExternallyReferencedEntity } from '@app/common';

export const LANDLORD_STATUSES = ['active', 'inactive'] as const;
export type LandlordStatus = (typeof LANDLORD_STATUSES)[number];

@Entity('landlords')
export class Landlord extends ExternallyReferencedEntity {
  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'full_address', type: 'text', nullable: true })
  fullAddress!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: LandlordStatus;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;
}
