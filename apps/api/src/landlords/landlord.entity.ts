import { Column, Entity, PrimaryColumn } from 'typeorm';

export const LANDLORD_STATUSES = ['active', 'inactive'] as const;
export type LandlordStatus = (typeof LANDLORD_STATUSES)[number];

@Entity('landlords')
export class Landlord {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' })
  teamId!: string;

  @PrimaryColumn({ type: 'uuid' })
  id!: string;

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

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, insert: false })
  updatedAt!: Date;
}
