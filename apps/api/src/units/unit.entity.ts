import { Column, Entity } from 'typeorm';
import { ExternallyReferencedEntity } from '@app/common';

@Entity('units')
export class Unit extends ExternallyReferencedEntity {
  @Column({ name: 'address_line1', type: 'text' })
  addressLine1!: string;

  @Column({ name: 'address_line2', type: 'text', nullable: true })
  addressLine2!: string | null;

  @Column({ type: 'text' })
  city!: string;

  @Column({ type: 'text', nullable: true })
  county!: string | null;

  @Column({ type: 'text' })
  country!: string;

  @Column({ type: 'text' })
  postcode!: string;

  @Column({ type: 'text', nullable: true })
  area!: string | null;

  /** Derived from the address parts on every write (see the units service). */
  @Column({ name: 'full_address', type: 'text' })
  fullAddress!: string;
}
