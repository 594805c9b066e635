import { Column, Entity } from 'typeorm';
import { ExternallyReferencedEntity } from '@app/common';

@Entity('tenants')
export class Tenant extends ExternallyReferencedEntity {
  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;
}
