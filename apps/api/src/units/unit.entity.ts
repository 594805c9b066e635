import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('units')
export class Unit {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' })
  teamId!: string;

  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'address_line1', type: 'varchar', length: 260 })
  addressLine1!: string;

  @Column({ name: 'address_line2', type: 'varchar', length: 260, nullable: true })
  addressLine2!: string | null;

  @Column({ type: 'varchar', length: 160 })
  city!: string;

  @Column({ type: 'varchar', length: 160, nullable: true })
  county!: string | null;

  @Column({ type: 'varchar', length: 160 })
  country!: string;

  @Column({ type: 'varchar', length: 80 })
  postcode!: string;

  @Column({ type: 'varchar', length: 160, nullable: true })
  area!: string | null;

  /** Derived from the address parts on every write (see the units service). */
  @Column({ name: 'full_address', type: 'text' })
  fullAddress!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, insert: false })
  updatedAt!: Date;
}
